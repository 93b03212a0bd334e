package distill

// Distill: libbpf's btf__distill_base.

import (
	"fmt"
	"slices"

	"github.com/btfkit/btfkit/btf"
)

// Distill splits src, BTF split against a base, into a distilled base and
// a new split BTF against it, with the semantics of libbpf's
// btf__distill_base. src is not modified.
func Distill(src *btf.Spec) (base, split *btf.Spec, err error) {
	old := src.Base()
	if old == nil {
		return nil, nil, fmt.Errorf("distill: the BTF is not split; a distilled base is made for split (module) BTF")
	}
	if old.Base() != nil {
		return nil, nil, fmt.Errorf("distill: the base BTF is itself split")
	}
	splitStart := uint32(old.NextID())
	n := uint32(src.NextID())
	d := &distiller{src: src, splitStart: splitStart, idMap: make([]uint32, n)}

	// The base types the split types refer to, and what those refer to,
	// except the members of named structs and unions (they stay behind).
	for id := splitStart; id < n; id++ {
		if err := d.markRefs(id); err != nil {
			return nil, nil, err
		}
	}
	// In ID order, as a walk over every base type would find them (the
	// base is a vmlinux's: tens of thousands of types, a module uses a
	// few hundred).
	slices.Sort(d.marked)

	// Named INT, FLOAT, FWD, STRUCT, UNION, ENUM, ENUM64 go to the new base.
	base = btf.NewSpec()
	base.SetHeaderLen(src.HeaderLen())
	next := uint32(1)
	for _, id := range d.marked {
		name, info, size, ext := src.RawType(btf.TypeID(id))
		str := src.String(name)
		switch k := btf.KindOf(info); k {
		case btf.KindInt, btf.KindFloat, btf.KindFwd:
			base.AddRaw(base.AddString(str), info, size, ext...)
		case btf.KindStruct, btf.KindUnion:
			if name == 0 {
				continue
			}
			base.Add(str, k, 0, false, size)
		case btf.KindEnum, btf.KindEnum64:
			if name == 0 {
				continue
			}
			base.Add(str, btf.KindEnum, 0, false, size)
		default:
			continue
		}
		d.idMap[id] = next
		next++
	}

	// The new split BTF: src's own types, then the rest of the marked
	// base types, then every reference renumbered.
	split = btf.NewSplitSpec(base)
	split.SetRawStrings(nil) // libbpf starts a split string table empty
	split.SetHeaderLen(src.HeaderLen())
	copyType := func(id uint32) {
		name, info, size, ext := src.RawType(btf.TypeID(id))
		ext = append([]uint32(nil), ext...)
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			if *p != 0 {
				*p = split.AddString(src.String(*p))
			}
		})
		split.AddRaw(name, info, size, ext...)
	}
	for id := splitStart; id < n; id++ {
		copyType(id)
	}
	nextSplit := uint32(split.NextID())
	for _, id := range d.marked {
		name, info, _, _ := src.RawType(btf.TypeID(id))
		switch btf.KindOf(info) {
		case btf.KindInt, btf.KindFloat, btf.KindFwd:
			continue
		case btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64:
			if name != 0 {
				continue
			}
		}
		copyType(id)
		d.idMap[id] = nextSplit
		nextSplit++
	}
	diff := splitStart - uint32(base.NextID())
	for id := split.FirstID(); id < split.NextID(); id++ {
		name, info, size, ext := split.RawType(id)
		ext = append([]uint32(nil), ext...)
		btf.ForEachTypeRef(info, &size, ext, func(p *uint32) {
			switch {
			case *p < n && d.idMap[*p] != 0:
				*p = d.idMap[*p]
			case *p >= splitStart:
				*p -= diff
			}
		})
		split.SetRaw(id, name, info, size, ext...)
	}
	return base, split, nil
}

type distiller struct {
	src        *btf.Spec
	splitStart uint32
	marked     []uint32 // the base types marked, in the order marked
	idMap      []uint32 // base ID -> new ID; during marking, the ID itself
}

// markRefs marks the base types type id refers to, and, except through
// named structs and unions, the base types those refer to.
func (d *distiller) markRefs(id uint32) error {
	_, info, size, ext := d.src.RawType(btf.TypeID(id))
	var refs []uint32
	btf.ForEachTypeRef(info, &size, ext, func(p *uint32) { refs = append(refs, *p) })
	for _, r := range refs {
		if r == 0 || r >= d.splitStart || d.idMap[r] != 0 {
			continue
		}
		if r >= uint32(len(d.idMap)) {
			return fmt.Errorf("distill: type [%d] refers to type %d, past the last type", id, r)
		}
		name, rinfo, _, _ := d.src.RawType(btf.TypeID(r))
		k := btf.KindOf(rinfo)
		switch k {
		case btf.KindInt, btf.KindFloat, btf.KindFwd, btf.KindArray,
			btf.KindStruct, btf.KindUnion, btf.KindTypedef, btf.KindEnum,
			btf.KindEnum64, btf.KindPtr, btf.KindConst, btf.KindRestrict,
			btf.KindVolatile, btf.KindFuncProto, btf.KindTypeTag:
			d.idMap[r] = r
			d.marked = append(d.marked, r)
		default:
			return fmt.Errorf("distill: type [%d] refers to base type [%d] of kind %s, which a distilled base cannot describe", id, r, k)
		}
		if (k == btf.KindStruct || k == btf.KindUnion) && name != 0 {
			continue
		}
		if err := d.markRefs(r); err != nil {
			return err
		}
	}
	return nil
}
