package ctype

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// SizeError is the size of a type that cannot be found: pahole's -1 as a
// size_t. An array of such a type multiplies it, as pahole does.
const SizeError = ^uint64(0)

// Sizer gives the sizes of one unit's types by pahole's rules
// (tag__size), as its BTF or DWARF loader made them.
type Sizer struct {
	Spec *btf.Spec
	// Facts are the DWARF facts beside a Spec converted from DWARF: an
	// array's dimensions. nil for BTF.
	Facts *dwarffacts.Facts
	// DWARF: the types stand for DWARF's, whose base types pahole sizes
	// by DW_AT_byte_size (the INT's size) where its BTF loader takes the
	// encoding's bits. Set for a Spec converted from DWARF, and for BTF
	// that must be sized as the DWARF it was made from would be.
	DWARF bool
	// PtrSize is the size of a pointer (PointerSize's guess, or the ELF
	// file's class).
	PtrSize uint32
	// Override, when set, is asked first: a size it knows (ok) is the
	// type's (layout's -w word size, which lays types out again).
	Override func(id btf.TypeID, t btf.Type) (size uint64, ok bool)

	depth int
}

// Size is pahole's tag__size: the size of a value of type id in bytes.
// Typedefs and qualifiers are followed; a pointer or a function type is
// a pointer's size; an enum BTF gives no size is an int's 4; a struct or
// union of size 1 without members is 0 (pahole's "empty base" rule for
// C++), a forward declaration 0; an array its element's size times its
// dimensions. SizeError for void behind nothing, a missing type or a
// chain of references that loops.
func (z *Sizer) Size(id btf.TypeID) uint64 {
	s := z.Spec
	for n := btf.TypeID(0); n < s.NextID(); n++ { // a longer chain loops
		t, ok := typeOf(s, id)
		if !ok {
			return SizeError
		}
		if z.Override != nil {
			if n, ok := z.Override(id, t); ok {
				return n
			}
		}
		switch t.Kind() {
		case btf.KindPtr, btf.KindFuncProto:
			return uint64(z.PtrSize)
		case btf.KindInt:
			if z.DWARF {
				return uint64(t.Size())
			}
			_, _, nbits := t.IntEncoding()
			return uint64(nbits / 8)
		case btf.KindFloat:
			return uint64(t.Size())
		case btf.KindEnum, btf.KindEnum64:
			if t.Size() == 0 {
				return 4
			}
			return uint64(t.Size())
		case btf.KindStruct, btf.KindUnion:
			return StructSize(t.Size(), t.Vlen())
		case btf.KindFwd:
			return 0
		case btf.KindArray:
			if z.depth >= maxDepth {
				return SizeError
			}
			z.depth++
			defer func() { z.depth-- }()
			elem, dims := z.Array(id, t.Array())
			size := z.Size(elem)
			if elem == 0 {
				size = 0
			}
			for _, d := range dims {
				size *= uint64(d)
			}
			return size
		case btf.KindTypedef, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
			if t.Ref() == 0 {
				return 0
			}
			id = t.Ref()
			continue
		}
		return 0
	}
	return SizeError
}

// StructSize is tag__size of a struct or union of size bytes with
// members members: its size, but 0 for one byte without members (pahole's
// "empty base optimization" rule, for C++'s empty classes).
func StructSize(size uint32, members int) uint64 {
	if size == 1 && members == 0 {
		return 0
	}
	return uint64(size)
}

// typeOf is Namer.Type for a Spec: pahole's cu__type.
func typeOf(s *btf.Spec, id btf.TypeID) (btf.Type, bool) {
	if s == nil || id == 0 || !s.Has(id) {
		return btf.Type{}, false
	}
	t := s.Type(id)
	switch t.Kind() {
	case btf.KindFunc, btf.KindVar, btf.KindDatasec, btf.KindDeclTag, btf.KindUnknown:
		return btf.Type{}, false
	}
	return t, true
}

// Array returns the array id as pahole's loader makes it: its element
// type and its dimensions, outermost first.
//
// From DWARF (Facts set), one array type carries all its dimensions (the
// facts have them when there are more or fewer than one), and the BTF
// package encode made of it is one ARRAY per dimension, the outermost
// with the array's ID: the element is past the inner ARRAYs.
//
// From BTF, pahole 1.32's loader folds an ARRAY whose element is directly
// an ARRAY (no typedef, qualifier or tag between) it has loaded already,
// one of a lower ID: the outer array takes the inner one's element and
// dimensions after its own ([2][3][4] for ARRAY(ARRAY(ARRAY(int, 4), 3),
// 2)). An inner ARRAY of a higher ID stays an element of its own (sid's
// pahole 1.32 -F btf on hand-made BTF: it then prints the inner
// dimensions first, as through a const, [4][2]).
func (z *Sizer) Array(id btf.TypeID, a btf.Array) (elem btf.TypeID, dims []uint32) {
	elem = a.Elem
	if z.Facts != nil {
		d := z.Facts.Dims(id)
		if d == nil {
			return elem, []uint32{a.Nelems}
		}
		for k := 1; k < len(d); k++ {
			t, ok := typeOf(z.Spec, elem)
			if !ok || t.Kind() != btf.KindArray {
				break
			}
			elem = t.Array().Elem
		}
		return elem, d
	}
	dims = []uint32{a.Nelems}
	for cur := id; ; {
		t, ok := typeOf(z.Spec, elem)
		if !ok || t.Kind() != btf.KindArray || elem >= cur {
			return elem, dims
		}
		in := t.Array()
		dims = append(dims, in.Nelems)
		cur, elem = elem, in.Elem
	}
}

// ArrayElem is Array's element type, without making the dimensions.
func (z *Sizer) ArrayElem(id btf.TypeID, a btf.Array) btf.TypeID {
	if z.Facts != nil {
		e, _ := z.Array(id, a)
		return e
	}
	elem := a.Elem
	for cur := id; ; {
		t, ok := typeOf(z.Spec, elem)
		if !ok || t.Kind() != btf.KindArray || elem >= cur {
			return elem
		}
		cur, elem = elem, t.Array().Elem
	}
}

// PointerSize is the size of a pointer on the machine the BTF describes,
// guessed as libbpf guesses it (btf__pointer_size): the size of the first
// INT of 4 or 8 bytes named as C's "long" may be spelled (any of its 11
// orders of "long", "unsigned" and "int"), in ID order, a split Spec's
// base first; 8 when there is none, as libbpf's btf_dump then takes
// sizeof(void *) of the 64-bit machines btfkit runs on.
func PointerSize(s *btf.Spec) uint32 {
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		t := s.Type(id)
		if t.Kind() != btf.KindInt || (t.Size() != 4 && t.Size() != 8) {
			continue
		}
		switch t.Name() {
		case "long", "long int", "int long", "unsigned long", "long unsigned",
			"unsigned long int", "unsigned int long", "long unsigned int",
			"long int unsigned", "int unsigned long", "int long unsigned":
			return t.Size()
		}
	}
	return 8
}
