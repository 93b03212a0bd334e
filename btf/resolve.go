package btf

import "math"

// ResolveSizeDepth is libbpf's MAX_RESOLVE_DEPTH: the longest chain of
// references ResolveSize follows.
const ResolveSizeDepth = 32

// ResolveSize is libbpf's btf__resolve_size: the byte size of type id
// through typedefs, modifiers, variables, decl and type tags and arrays,
// a pointer being ptrSize bytes. ok is false when the type has none (void,
// FWD, functions), a reference leaves the Spec, the chain is longer than
// ResolveSizeDepth, or the size does not fit in 32 bits. For bpftool's C
// dump (cdump) and CO-RE relocation (btf/minimize).
func ResolveSize(s *Spec, id TypeID, ptrSize uint32) (size int64, ok bool) {
	nelems := uint64(1)
	size = -1
	for i := 0; i < ResolveSizeDepth && id != 0 && s.Has(id); i++ {
		t := s.Type(id)
		switch t.Kind() {
		case KindInt, KindStruct, KindUnion, KindEnum, KindEnum64, KindDatasec, KindFloat:
			size = int64(t.Size())
		case KindPtr:
			size = int64(ptrSize)
		case KindTypedef, KindVolatile, KindConst, KindRestrict, KindVar, KindDeclTag, KindTypeTag:
			id = t.Ref()
			continue
		case KindArray:
			a := t.Array()
			if nelems != 0 && uint64(a.Nelems) > math.MaxUint32/nelems {
				return 0, false
			}
			nelems *= uint64(a.Nelems)
			id = a.Elem
			continue
		}
		break
	}
	if size < 0 || nelems != 0 && uint64(size) > math.MaxUint32/nelems {
		return 0, false
	}
	return int64(nelems) * size, true
}
