package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Merge concatenates Specs into one, in argument order, without
// deduplicating: the types of specs[1] follow those of specs[0] and so on,
// each one's type IDs and string offsets shifted to its new place. All
// specs must be base Specs, or all split Specs against the same base; the
// result is split against that base too.
//
// Strings are interned: the result's table holds each referenced string
// once, in first-reference order, as libbpf's btf__add_btf builds it.
func Merge(specs ...*btf.Spec) (*btf.Spec, error) {
	if len(specs) == 0 {
		return btf.NewSpec(), nil
	}
	base := specs[0].Base()
	for i, s := range specs {
		if s.Base() != base {
			return nil, fmt.Errorf("dedup: merge: spec %d has a different base than spec 0", i)
		}
	}
	return MergeOnto(base, specs...)
}

// MergeOnto is Merge with an explicit base: the result is split against
// base (a base Spec when base is nil), and each spec is either split
// against that same base or a standalone base Spec whose types are
// appended as they are (they refer to none of base's types). The latter is
// how per-unit fragments, each numbered from 1, become one module BTF to
// deduplicate against vmlinux.
func MergeOnto(base *btf.Spec, specs ...*btf.Spec) (*btf.Spec, error) {
	for i, s := range specs {
		if s.Base() != nil && s.Base() != base {
			return nil, fmt.Errorf("dedup: merge: spec %d is split against a different base", i)
		}
	}
	var out *btf.Spec
	if base != nil {
		out = btf.NewSplitSpec(base)
	} else {
		out = btf.NewSpec()
	}
	nt, nw := 0, 0
	for _, s := range specs {
		nt += s.NumTypes()
		for id := s.FirstID(); id < s.NextID(); id++ {
			_, _, _, e := s.RawType(id)
			nw += len(e)
		}
	}
	if uint64(nt)+uint64(out.FirstID()) > maxTypes {
		return nil, fmt.Errorf("dedup: merge: %d types is more than BTF allows", nt)
	}
	out.Reserve(nt, nw)
	// Strings are interned as types reference them: the merged table
	// holds each string once, in first-reference order (what Dedup would
	// make of it anyway), so its size is that of the distinct strings, not
	// of thousands of per-unit tables. Each spec's offsets are translated
	// through a per-spec cache, so each string of a spec costs one map
	// look-up.
	// Offset 0 is the empty string of a base; a split one's own table
	// starts with its first string.
	strBytes := 0
	for _, s := range specs {
		strBytes += len(s.RawStrings())
	}
	strs := newInterner(strBytes/64, base == nil)
	outStart := out.StringsStart()
	var cache []uint32 // new offset + 1 by offset in the current spec's table
	var ext []uint32
	for i, s := range specs {
		first := s.FirstID()
		idShift := uint32(out.NextID()) - uint32(first)
		strStart := s.StringsStart()
		old := s.RawStrings()
		if cap(cache) < len(old) {
			cache = make([]uint32, len(old))
		} else {
			cache = cache[:len(old)]
			clear(cache)
		}
		var bad error
		for id := first; id < s.NextID(); id++ {
			name, info, st, e := s.RawType(id)
			ext = append(ext[:0], e...)
			btf.ForEachTypeRef(info, &st, ext, func(p *uint32) {
				if *p >= uint32(first) {
					if *p >= uint32(s.NextID()) && bad == nil {
						bad = fmt.Errorf("refers to type %d, past the last type %d", *p, s.NextID()-1)
					}
					*p += idShift
				}
			})
			btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
				if *p == 0 || *p < strStart || bad != nil {
					return // the empty string, or a base string
				}
				rel := *p - strStart
				if int(rel) >= len(old) {
					bad = fmt.Errorf("string offset %d past the end of the string table", *p)
					return
				}
				if c := cache[rel]; c != 0 {
					*p = c - 1
					return
				}
				str := btf.CString(old[rel:])
				no := outStart + strs.add(str)
				cache[rel] = no + 1
				*p = no
			})
			if bad != nil {
				return nil, fmt.Errorf("dedup: merge: spec %d type [%d]: %w", i, id, bad)
			}
			out.AddRaw(name, info, st, ext...)
		}
		if uint64(outStart)+uint64(len(strs.strs)) > 1<<32-1 {
			return nil, fmt.Errorf("dedup: merge: %d bytes of strings do not fit in BTF's 32-bit offsets", len(strs.strs))
		}
	}
	out.SetRawStrings(strs.strs)
	hl := uint32(0)
	for _, s := range specs {
		hl = max(hl, s.HeaderLen())
	}
	out.SetHeaderLen(hl)
	for _, s := range specs {
		if l := s.KindLayouts(); l != nil {
			out.SetKindLayouts(l) // the first input's kind layout section
			break
		}
	}
	return out, nil
}

// FirstIDs returns, for each spec, the merged ID its first own type gets in
// MergeOnto(base, specs...) (and Merge, whose base is the specs' own): type
// x of specs[i] has the merged ID FirstIDs(base, specs)[i] + (x -
// specs[i].FirstID()), which a Mapping of Dedup on the merged Spec then
// maps to its output ID.
func FirstIDs(base *btf.Spec, specs []*btf.Spec) []btf.TypeID {
	next := btf.TypeID(1)
	if base != nil {
		next = base.NextID()
	}
	ids := make([]btf.TypeID, len(specs))
	for i, s := range specs {
		ids[i] = next
		next += btf.TypeID(s.NumTypes())
	}
	return ids
}
