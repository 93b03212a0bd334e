package btf

// Helpers for packages that rebuild Specs wholesale (dedup, merge): raw
// access to a Spec's records and the references they hold.

// ForEachTypeRef calls fn with a pointer to every word of a type's record
// that holds a type ID, given the type's info word, a pointer to its
// size-or-type word and its trailing words, in the order libbpf visits
// them: the size-or-type word first, then the trailing words in order.
func ForEachTypeRef(info uint32, sizeType *uint32, ext []uint32, fn func(*uint32)) {
	k, vlen := KindOf(info), VlenOf(info)
	switch k {
	case KindPtr, KindTypedef, KindVolatile, KindConst, KindRestrict,
		KindFunc, KindVar, KindDeclTag, KindTypeTag:
		fn(sizeType)
	case KindArray:
		fn(&ext[0])
		fn(&ext[1])
	case KindStruct, KindUnion:
		for i := 0; i < vlen; i++ {
			fn(&ext[3*i+1])
		}
	case KindFuncProto:
		fn(sizeType)
		for i := 0; i < vlen; i++ {
			fn(&ext[2*i+1])
		}
	case KindDatasec:
		for i := 0; i < vlen; i++ {
			fn(&ext[3*i])
		}
	}
}

// ForEachStringRef calls fn with a pointer to every word of a type's record
// that holds a string offset: the name first, then member, enumerator and
// parameter names in order (libbpf's order, which fixes the order of a
// rebuilt string table).
func ForEachStringRef(info uint32, nameOff *uint32, ext []uint32, fn func(*uint32)) {
	fn(nameOff)
	k, vlen := KindOf(info), VlenOf(info)
	switch k {
	case KindStruct, KindUnion, KindEnum64:
		for i := 0; i < vlen; i++ {
			fn(&ext[3*i])
		}
	case KindEnum, KindFuncProto:
		for i := 0; i < vlen; i++ {
			fn(&ext[2*i])
		}
	}
}

// RawType returns the raw header words and trailing words (not a copy) of
// one of this Spec's types or its base's. It is the allocation-free form of
// Type for bulk readers.
func (s *Spec) RawType(id TypeID) (nameOff, info, sizeType uint32, ext []uint32) {
	sp := s.owner(id)
	if sp == nil {
		panic("btf: RawType: type id out of range")
	}
	i := int(id - sp.startID)
	h := sp.hdrs[i]
	return h.NameOff, h.Info, h.SizeType, sp.words[sp.extStart[i]:sp.extStart[i+1]:sp.extStart[i+1]]
}

// OwnInfo returns the info word of this Spec's own type number i (its
// ID minus FirstID), for loops over the own types that want it inlined.
func (s *Spec) OwnInfo(i uint32) uint32 { return s.hdrs[i].Info }

// HeaderLen is the header length Marshal writes: the one of the raw BTF
// the Spec was parsed from (24 or more), or 24 for a Spec built in memory;
// at least LayoutHeaderLen when the Spec has a kind layout section.
func (s *Spec) HeaderLen() uint32 {
	n := max(s.hdrLen, HeaderLen)
	if len(s.layout) > 0 {
		n = max(n, LayoutHeaderLen)
	}
	return n
}

// SetHeaderLen sets the header length Marshal writes (at least 24, a
// multiple of 4; bytes past the 24 known ones are written as zero), so a
// Spec rebuilt from another keeps its layout: libbpf v1.8 writes 32.
func (s *Spec) SetHeaderLen(n uint32) {
	if n < HeaderLen {
		n = HeaderLen
	}
	s.hdrLen = n &^ 3
}
