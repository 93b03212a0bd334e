package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Phase 7: the canonical types, renumbered, become the output Spec.

// compactRemap keeps the canonical types in ID order, renumbers them and
// rewrites every reference, building the output Spec and the Mapping.
func (d *deduper) compactRemap(in *btf.Spec, strs []byte) (*btf.Spec, Mapping, error) {
	// libbpf dedups in place, header and kind layout section included.
	return d.compact(in.Base(), in.HeaderLen(), in.KindLayouts(), strs, true)
}

// compact is compactRemap for a result split against base (nil: none),
// with a header of hdrLen bytes, the kind layout section layouts and the
// string table strs. Without mapping the Mapping is left empty (a
// Stream's caller has no use for one; a vmlinux's is 13 MB).
func (d *deduper) compact(base *btf.Spec, hdrLen uint32, layouts []btf.KindLayout, strs []byte, mapping bool) (*btf.Spec, Mapping, error) {
	newID := d.hypothetical // reused, as libbpf does
	if d.identity != nil {
		copy(newID, d.identity[:d.start])
	} else {
		for id := uint32(0); id < d.start; id++ {
			newID[id] = id
		}
	}
	next := d.start
	nw := 0
	for id := d.start; id < d.n; id++ {
		if d.canonical[id] == id {
			newID[id] = next
			next++
			nw += int(d.extStart[id+1] - d.extStart[id])
		} else {
			newID[id] = unprocessed
		}
	}
	var out *btf.Spec
	if base != nil {
		out = btf.NewSplitSpec(base)
	} else {
		out = btf.NewSpec()
	}
	out.Reserve(int(next-d.start), nw)
	var bad uint32
	remap := func(p *uint32) {
		n := newID[d.resolve(*p)]
		if n > maxTypes {
			bad = *p
		}
		*p = n
	}
	var h typeHeader // declared once: its address escapes to ForEachTypeRef
	for id := d.start; id < d.n; id++ {
		if d.canonical[id] != id {
			continue
		}
		h = d.hdr[id]
		e := d.ext(id)
		btf.ForEachTypeRef(h.info, &h.sizeType, e, remap)
		if bad != 0 {
			return nil, Mapping{}, fmt.Errorf("dedup: type [%d] refers to type %d, which has no canonical type", id, bad)
		}
		out.AddRaw(h.name, h.info, h.sizeType, e...)
	}
	out.SetRawStrings(strs)
	out.SetHeaderLen(hdrLen)
	out.SetKindLayouts(layouts)
	if !mapping {
		return out, Mapping{}, nil
	}
	m := Mapping{first: btf.TypeID(d.start), ids: make([]btf.TypeID, d.n-d.start)}
	for id := d.start; id < d.n; id++ {
		m.ids[id-d.start] = btf.TypeID(newID[d.resolve(id)])
	}
	return out, m, nil
}
