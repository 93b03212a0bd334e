package encode

import (
	"github.com/btfkit/btfkit/btf"
)

// mergeFragments appends the types of the fragments, in order, to one
// Spec: each fragment's IDs are shifted past the types before it and its
// strings are interned in the result's table.
func mergeFragments(frags []*btf.Spec) *btf.Spec {
	out := btf.NewSpec()
	n, w := 0, 0
	for _, f := range frags {
		n += f.NumTypes()
		w += f.NumTypes() * 3
	}
	out.Reserve(n, w)
	var ext []uint32
	var strMap []uint32 // fragment string offset -> merged offset, by offset
	for _, f := range frags {
		shift := uint32(out.NextID()) - 1
		raw := f.RawStrings()
		if cap(strMap) < len(raw) {
			strMap = make([]uint32, len(raw))
		}
		strMap = strMap[:len(raw)]
		for i := 0; i < len(raw); {
			j := i
			for j < len(raw) && raw[j] != 0 {
				j++
			}
			if j > i {
				strMap[i] = out.AddString(string(raw[i:j]))
			}
			i = j + 1
		}
		str := func(off uint32) uint32 {
			if off == 0 {
				return 0
			}
			return strMap[off]
		}
		tid := func(id uint32) uint32 {
			if id == 0 {
				return 0
			}
			return id + shift
		}
		for id := btf.TypeID(1); id < f.NextID(); id++ {
			t := f.Type(id)
			ext = append(ext[:0], t.Extra()...)
			st := t.SizeType()
			switch t.Kind() {
			case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst,
				btf.KindRestrict, btf.KindFunc, btf.KindVar, btf.KindDeclTag,
				btf.KindTypeTag, btf.KindFuncProto:
				st = tid(st)
			}
			switch t.Kind() {
			case btf.KindArray:
				ext[0], ext[1] = tid(ext[0]), tid(ext[1])
			case btf.KindStruct, btf.KindUnion:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i], ext[i+1] = str(ext[i]), tid(ext[i+1])
				}
			case btf.KindEnum:
				for i := 0; i+1 < len(ext); i += 2 {
					ext[i] = str(ext[i])
				}
			case btf.KindEnum64:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i] = str(ext[i])
				}
			case btf.KindFuncProto:
				for i := 0; i+1 < len(ext); i += 2 {
					ext[i], ext[i+1] = str(ext[i]), tid(ext[i+1])
				}
			case btf.KindDatasec:
				for i := 0; i+2 < len(ext); i += 3 {
					ext[i] = tid(ext[i])
				}
			}
			out.AddRaw(str(t.NameOff()), t.Info(), st, ext...)
		}
	}
	return out
}
