package funcvar

import "github.com/btfkit/btfkit/btf"

// funcsMatch is pahole's funcs__match: same parameter count, return and
// parameter types matching loosely (typesMatch) in the merged types. When
// they do not, it says where first (mm's Name is left to the caller).
func (s *Selection) funcsMatch(out Merged, a, b *merged) (ok bool, mm Mismatch) {
	if a.nParams != b.nParams {
		return false, Mismatch{What: ParamCount, Counts: [2]uint32{a.nParams, b.nParams}}
	}
	if !typesMatch(out, a.ret, b.ret, 0) {
		return false, Mismatch{What: ReturnType}
	}
	for i := uint32(0); i < a.nParams; i++ {
		if !typesMatch(out, s.words[a.params0+2*i+1], s.words[b.params0+2*i+1], 0) {
			return false, Mismatch{What: ParamType, Param: i,
				ParamNames: [2]uint32{s.words[a.params0+2*i], s.words[b.params0+2*i]}}
		}
	}
	return true, Mismatch{}
}

// rawType is a type's fields as Types.RawType gives them.
type rawType struct {
	name, info, sizeType uint32
	ext                  []uint32
}

func typeOf(out Merged, id uint32) rawType {
	name, info, st, ext := out.RawType(btf.TypeID(id))
	return rawType{name, info, st, ext}
}

// declaredKind is a type's kind, a FWD's being the kind it declares.
func declaredKind(t rawType) btf.Kind {
	k := btf.KindOf(t.info)
	if k == btf.KindFwd {
		if btf.KindFlagOf(t.info) {
			return btf.KindUnion
		}
		return btf.KindStruct
	}
	return k
}

// typesMatch is pahole's types__match over the merged types: kinds equal
// (a FWD as the struct or union it declares, const looked through on
// either side), named types by name, ints by size, encoding and name,
// references by their targets, arrays by element count and type,
// prototypes by all their types.
func typesMatch(out Merged, id1, id2 uint32, depth int) bool {
	for n := 0; n < 256 && depth < 64; n++ {
		if id1 == id2 {
			return true
		}
		if id1 == 0 || id2 == 0 {
			return false
		}
		t1, t2 := typeOf(out, id1), typeOf(out, id2)
		k1, k2 := declaredKind(t1), declaredKind(t2)
		if k1 != k2 {
			if k1 == btf.KindConst {
				id1 = t1.sizeType
				continue
			}
			if k2 == btf.KindConst {
				id2 = t2.sizeType
				continue
			}
			return false
		}
		switch k1 {
		case btf.KindInt:
			return t1.sizeType == t2.sizeType && t1.ext[0] == t2.ext[0] && t1.name == t2.name
		case btf.KindFloat:
			return t1.sizeType == t2.sizeType && t1.name == t2.name
		case btf.KindTypedef, btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64:
			return t1.name == t2.name
		case btf.KindPtr, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id1, id2 = t1.sizeType, t2.sizeType
		case btf.KindArray:
			a1, a2 := t1.ext, t2.ext
			if a1[2] != a2[2] {
				return false
			}
			id1, id2 = a1[0], a2[0]
		case btf.KindFuncProto:
			v1, v2 := btf.VlenOf(t1.info), btf.VlenOf(t2.info)
			if v1 != v2 || !typesMatch(out, t1.sizeType, t2.sizeType, depth+1) {
				return false
			}
			p1, p2 := t1.ext, t2.ext
			for i := 0; i < v1; i++ {
				if !typesMatch(out, p1[2*i+1], p2[2*i+1], depth+1) {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}
