package cdump

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Combine returns one split Spec over base holding the own types of every
// split Spec in splits, in order: the first's types, then the second's,
// with type IDs and string offsets renumbered. Every split must extend
// base (the same *btf.Spec). The result prints as one header with the base
// types once and each module's types after them, which is what
// `bpftool btf dump file vmlinux file mod1 file mod2 ...` (bpftool 7.5+)
// prints, except that types two modules both define are not merged:
// merging is deduplication, not this package's business, so such a type
// appears once per module, the later ones renamed NAME___2 and so on.
func Combine(base *btf.Spec, splits ...*btf.Spec) (*btf.Spec, error) {
	out := btf.NewSplitSpec(base)
	total := 0
	for i, s := range splits {
		if s.Base() != base {
			return nil, fmt.Errorf("cdump: split %d does not extend the given base", i)
		}
		total += s.NumTypes()
	}
	out.Reserve(total, 0)
	var ext []uint32
	for _, s := range splits {
		first, shift := s.FirstID(), out.NextID()-s.FirstID()
		mapID := func(id uint32) uint32 {
			if btf.TypeID(id) < first {
				return id // void or a base type
			}
			return id + uint32(shift)
		}
		mapStr := func(off uint32) uint32 {
			if off < s.StringsStart() {
				return off // base string
			}
			return out.AddString(s.String(off))
		}
		for id := first; id < s.NextID(); id++ {
			t := s.Type(id)
			ext = append(ext[:0], t.Extra()...)
			sizeType := t.SizeType()
			switch t.Kind() {
			case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst,
				btf.KindRestrict, btf.KindFunc, btf.KindFuncProto, btf.KindVar,
				btf.KindDeclTag, btf.KindTypeTag:
				sizeType = mapID(sizeType)
			}
			switch t.Kind() {
			case btf.KindArray:
				ext[0], ext[1] = mapID(ext[0]), mapID(ext[1])
			case btf.KindStruct, btf.KindUnion:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i], ext[i+1] = mapStr(ext[i]), mapID(ext[i+1])
				}
			case btf.KindEnum:
				for i := 0; i+1 < len(ext); i += 2 {
					ext[i] = mapStr(ext[i])
				}
			case btf.KindEnum64:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i] = mapStr(ext[i])
				}
			case btf.KindFuncProto:
				for i := 0; i+1 < len(ext); i += 2 {
					ext[i], ext[i+1] = mapStr(ext[i]), mapID(ext[i+1])
				}
			case btf.KindDatasec:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i] = mapID(ext[i])
				}
			}
			out.AddRaw(mapStr(t.NameOff()), t.Info(), sizeType, ext...)
		}
	}
	return out, nil
}
