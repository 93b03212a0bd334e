package funcvar

import "github.com/btfkit/btfkit/btf"

// funcsMatch is pahole's funcs__match: same parameter count, return and
// parameter types matching loosely (typesMatch) in the merged types.
func (s *Selection) funcsMatch(out *btf.Spec, a, b *merged) bool {
	if a.nParams != b.nParams {
		return false
	}
	if !typesMatch(out, a.ret, b.ret, 0) {
		return false
	}
	for i := uint32(0); i < a.nParams; i++ {
		if !typesMatch(out, s.words[a.params0+2*i+1], s.words[b.params0+2*i+1], 0) {
			return false
		}
	}
	return true
}

// declaredKind is a type's kind, a FWD's being the kind it declares.
func declaredKind(t btf.Type) btf.Kind {
	if t.Kind() == btf.KindFwd {
		if t.KindFlag() {
			return btf.KindUnion
		}
		return btf.KindStruct
	}
	return t.Kind()
}

// typesMatch is pahole's types__match over the merged types: kinds equal
// (a FWD as the struct or union it declares, const looked through on
// either side), named types by name, ints by size, encoding and name,
// references by their targets, arrays by element count and type,
// prototypes by all their types.
func typesMatch(out *btf.Spec, id1, id2 uint32, depth int) bool {
	for n := 0; n < 256 && depth < 64; n++ {
		if id1 == id2 {
			return true
		}
		if id1 == 0 || id2 == 0 {
			return false
		}
		t1, t2 := out.Type(btf.TypeID(id1)), out.Type(btf.TypeID(id2))
		k1, k2 := declaredKind(t1), declaredKind(t2)
		if k1 != k2 {
			if k1 == btf.KindConst {
				id1 = t1.SizeType()
				continue
			}
			if k2 == btf.KindConst {
				id2 = t2.SizeType()
				continue
			}
			return false
		}
		switch k1 {
		case btf.KindInt:
			return t1.Size() == t2.Size() && t1.Extra()[0] == t2.Extra()[0] && t1.NameOff() == t2.NameOff()
		case btf.KindFloat:
			return t1.Size() == t2.Size() && t1.NameOff() == t2.NameOff()
		case btf.KindTypedef, btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64:
			return t1.NameOff() == t2.NameOff()
		case btf.KindPtr, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id1, id2 = t1.SizeType(), t2.SizeType()
		case btf.KindArray:
			a1, a2 := t1.Extra(), t2.Extra()
			if a1[2] != a2[2] {
				return false
			}
			id1, id2 = a1[0], a2[0]
		case btf.KindFuncProto:
			if t1.Vlen() != t2.Vlen() || !typesMatch(out, t1.SizeType(), t2.SizeType(), depth+1) {
				return false
			}
			p1, p2 := t1.Extra(), t2.Extra()
			for i := 0; i < t1.Vlen(); i++ {
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
