package ctype

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

func TestSize(t *testing.T) {
	s := btf.NewSpec()
	intT := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	boolT := s.Add("_Bool", btf.KindInt, 0, false, 1, btf.IntBool<<24|1)
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(intT))
	proto := s.Add("", btf.KindFuncProto, 0, false, uint32(intT))
	en0 := s.Add("e0", btf.KindEnum, 0, false, 0)
	en8 := s.Add("e8", btf.KindEnum64, 0, false, 8)
	empty := s.Add("empty", btf.KindStruct, 0, false, 1)
	one := s.Add("one", btf.KindStruct, 1, false, 1, s.AddString("c"), uint32(boolT), 0)
	fwd := s.Add("f", btf.KindFwd, 0, false, 0)
	inner := s.Add("", btf.KindArray, 0, false, 0, uint32(intT), uint32(intT), 3)
	outer := s.Add("", btf.KindArray, 0, false, 0, uint32(inner), uint32(intT), 2) // int[2][3]
	cst := s.Add("", btf.KindConst, 0, false, uint32(outer))
	tdef := s.Add("t", btf.KindTypedef, 0, false, uint32(cst))
	voidT := s.Add("v", btf.KindTypedef, 0, false, 0)
	missing := s.Add("m", btf.KindTypedef, 0, false, 999)
	loop := s.Add("l", btf.KindTypedef, 0, false, 0)
	s.SetRaw(loop, s.AddString("l"), btf.Info(btf.KindTypedef, 0, false), uint32(loop))
	fn := s.Add("fn", btf.KindFunc, 0, false, uint32(proto))
	missingArr := s.Add("", btf.KindArray, 0, false, 0, 999, uint32(intT), 2)

	z := &Sizer{Spec: s, PtrSize: 8}
	for _, c := range []struct {
		id   btf.TypeID
		want uint64
	}{
		{intT, 4}, {boolT, 0}, // BTF: the encoding's bits
		{ptr, 8}, {proto, 8}, {en0, 4}, {en8, 8},
		{empty, 0}, {one, 1}, {fwd, 0},
		{inner, 12}, {outer, 24}, {cst, 24}, {tdef, 24},
		{voidT, 0}, {missing, SizeError}, {loop, SizeError}, {fn, SizeError},
		{missingArr, SizeError - 1}, // -1 * 2 as a size_t, as pahole multiplies it
	} {
		if got := z.Size(c.id); got != c.want {
			t.Errorf("Size(%d) = %d, want %d", c.id, got, c.want)
		}
	}
	if got := (&Sizer{Spec: s, DWARF: true, PtrSize: 4}).Size(boolT); got != 1 {
		t.Errorf("DWARF _Bool: %d", got)
	}
	if got := (&Sizer{Spec: s, PtrSize: 4}).Size(ptr); got != 4 {
		t.Errorf("4-byte pointer: %d", got)
	}
	over := &Sizer{Spec: s, PtrSize: 8, Override: func(id btf.TypeID, _ btf.Type) (uint64, bool) { return 7, id == intT }}
	if got := over.Size(tdef); got != 42 {
		t.Errorf("overridden int: %d", got)
	}
	// From DWARF, the dimensions are the facts': the ARRAYs after the
	// first are the inner dimensions encode wrote.
	f := &dwarffacts.Facts{}
	f.SetDims(outer, []uint32{2, 3})
	dz := &Sizer{Spec: s, Facts: f, DWARF: true, PtrSize: 8}
	if elem, dims := dz.Array(outer, s.Type(outer).Array()); elem != intT || len(dims) != 2 {
		t.Errorf("DWARF array: %d %v", elem, dims)
	}
	if got := dz.Size(outer); got != 24 {
		t.Errorf("DWARF int[2][3]: %d", got)
	}
	// From BTF an inner ARRAY of a lower ID is folded into its outer one.
	if elem, dims := z.Array(outer, s.Type(outer).Array()); elem != intT || len(dims) != 2 || dims[0] != 2 || dims[1] != 3 {
		t.Errorf("BTF array: %d %v", elem, dims)
	}
	if elem := z.ArrayElem(outer, s.Type(outer).Array()); elem != intT {
		t.Errorf("BTF array element: %d", elem)
	}
}

func TestPointerSize(t *testing.T) {
	for _, c := range []struct {
		name string
		size uint32
		want uint32
	}{
		{"long int", 4, 4},
		{"int unsigned long", 4, 4},
		{"long unsigned", 8, 8},
		{"long long int", 4, 8}, // not a long
		{"long int", 2, 8},      // not a pointer's size
		{"int", 4, 8},
	} {
		s := btf.NewSpec()
		s.Add(c.name, btf.KindInt, 0, false, c.size, c.size*8)
		if got := PointerSize(s); got != c.want {
			t.Errorf("%q of %d bytes: %d, want %d", c.name, c.size, got, c.want)
		}
	}
	// A split Spec: the base's long counts, first.
	base := btf.NewSpec()
	base.Add("long", btf.KindInt, 0, false, 4, 32)
	split := btf.NewSplitSpec(base)
	split.Add("long int", btf.KindInt, 0, false, 8, 64)
	if got := PointerSize(split); got != 4 {
		t.Errorf("split: %d", got)
	}
}
