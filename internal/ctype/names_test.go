package ctype

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/cfmt"
)

// names is a unit with one type of each shape tag__name spells.
type names struct {
	s                                              *btf.Spec
	intT, longT, flt, ptr, cst, vol, rst, constPtr btf.TypeID
	arr, arr2, tdef, st, un, fwdU, en, proto, fptr btf.TypeID
	missingPtr, loop                               btf.TypeID
}

func newNames() *names {
	s := btf.NewSpec()
	n := &names{s: s}
	n.intT = s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	n.longT = s.Add("long int", btf.KindInt, 0, false, 8, btf.IntSigned<<24|64)
	n.flt = s.Add("float", btf.KindFloat, 0, false, 4)
	n.ptr = s.Add("", btf.KindPtr, 0, false, uint32(n.intT))
	n.cst = s.Add("", btf.KindConst, 0, false, uint32(n.intT))
	n.vol = s.Add("", btf.KindVolatile, 0, false, uint32(n.ptr))
	n.rst = s.Add("", btf.KindRestrict, 0, false, uint32(n.ptr))
	cp := s.Add("", btf.KindConst, 0, false, uint32(n.ptr))
	n.constPtr = s.Add("", btf.KindPtr, 0, false, uint32(cp))
	n.arr = s.Add("", btf.KindArray, 0, false, 0, uint32(n.longT), uint32(n.intT), 3)
	n.arr2 = s.Add("", btf.KindArray, 0, false, 0, uint32(n.arr), uint32(n.intT), 2)
	n.tdef = s.Add("u32", btf.KindTypedef, 0, false, uint32(n.intT))
	n.st = s.Add("s", btf.KindStruct, 1, false, 4, s.AddString("a"), uint32(n.intT), 0)
	n.un = s.Add("u", btf.KindUnion, 0, false, 0)
	n.fwdU = s.Add("fu", btf.KindFwd, 0, true, 0)
	n.en = s.Add("e", btf.KindEnum, 0, false, 4)
	n.proto = s.Add("", btf.KindFuncProto, 3, false, uint32(n.intT),
		s.AddString("p"), uint32(n.ptr), 0, uint32(n.st), 0, 0)
	n.fptr = s.Add("", btf.KindPtr, 0, false, uint32(n.proto))
	n.missingPtr = s.Add("", btf.KindPtr, 0, false, 999)
	n.loop = s.Add("", btf.KindConst, 0, false, 0)
	s.SetRaw(n.loop, 0, btf.Info(btf.KindConst, 0, false), uint32(n.loop))
	return n
}

func TestTagName(t *testing.T) {
	n := newNames()
	nm := NewNamer(n.s, nil, Options{})
	for _, c := range []struct {
		id   btf.TypeID
		size int
		want string
	}{
		{0, NameBuf, "void"},
		{999, NameBuf, "void"},
		{n.intT, NameBuf, "int"},
		{n.flt, NameBuf, "single float"}, // from BTF
		{n.ptr, NameBuf, "int *"},
		{n.cst, NameBuf, "const int "},
		{n.vol, NameBuf, "volatile int * "},
		{n.rst, NameBuf, "int * restrict "},
		{n.constPtr, NameBuf, "int * const *"},
		{n.arr2, NameBuf, "long int"},
		{n.tdef, NameBuf, "u32"},
		{n.st, NameBuf, "struct s"},
		{n.un, NameBuf, "union u"},
		{n.fwdU, NameBuf, "union fu"},
		{n.en, NameBuf, "enum e"},
		{n.proto, NameBuf, "int ()(int * p, struct s, ...)"},
		{n.fptr, NameBuf, "int ()(int * p, struct s, ...) *"},
		{n.missingPtr, NameBuf, "<ERROR(__tag__name:0): 0x3e7 not found!> *"},
		{n.st, 5, "stru"},
		{n.proto, 10, "int ()(in"},
	} {
		if got := nm.TagName(c.id, c.size); got != c.want {
			t.Errorf("TagName(%d, %d) = %q, want %q", c.id, c.size, got, c.want)
		}
	}
	// Malformed: the name ends, cut to the buffer.
	if got := nm.TagName(n.loop, NameBuf); !strings.HasPrefix(got, "const const ") || len(got) != NameBuf-1 {
		t.Errorf("a const of itself: %q", got)
	}
}

func TestPrefix(t *testing.T) {
	n := newNames()
	class := &dwarffacts.Facts{}
	class.SetClass(n.st)
	cxx := &dwarffacts.Facts{}
	cxx.SetLanguage(dwLangCPlusPlus)
	cxx14 := &dwarffacts.Facts{}
	cxx14.SetLanguage(0x21) // DW_LANG_C_plus_plus_14: pahole says "struct"
	for _, c := range []struct {
		facts *dwarffacts.Facts
		o     Options
		id    btf.TypeID
		want  string
	}{
		{nil, Options{}, n.st, "struct "},
		{class, Options{}, n.st, "class "},
		{class, Options{ClassesAsStructs: true}, n.st, "struct "},
		{cxx, Options{}, n.st, "class "},
		{cxx, Options{ClassesAsStructs: true}, n.st, "struct "},
		{cxx14, Options{}, n.st, "struct "},
		{cxx, Options{}, n.un, "union "},
		{cxx, Options{}, n.en, "enum "},
		{cxx, Options{}, n.tdef, ""},
	} {
		if got := NewNamer(n.s, c.facts, c.o).Prefix(n.s.Type(c.id)); got != c.want {
			t.Errorf("Prefix(%d) with %+v = %q, want %q", c.id, c.o, got, c.want)
		}
	}
}

func TestFromDWARF(t *testing.T) {
	n := newNames()
	f := &dwarffacts.Facts{}
	f.SetAtomic(n.vol)
	nm := NewNamer(n.s, f, Options{})
	if got := nm.TagName(n.flt, NameBuf); got != "float" {
		t.Errorf("DWARF float: %q", got)
	}
	if got := nm.TagName(n.vol, NameBuf); got != "_Atomic int * " {
		t.Errorf("atomic: %q", got)
	}
}

// params is a DWARF function's own parameter list.
type params []struct {
	name string
	typ  btf.TypeID
}

func (p params) NumParams() int                   { return len(p) }
func (p params) Param(i int) (string, btf.TypeID) { return p[i].name, p[i].typ }

func TestFtype(t *testing.T) {
	n := newNames()
	attrs := func(proto btf.TypeID, i int) []string {
		if proto == n.proto && i == 1 {
			return []string{"__tag"}
		}
		return nil
	}
	dw := params{{"x", n.cst}, {"cb", n.fptr}, {"bad", 999}}
	for _, c := range []struct {
		o           Options
		p           Proto
		name        string
		inlined     bool
		isPointer   bool
		typeSpacing int
		isPrototype bool
		want        string
	}{
		{Options{}, ProtoOf(n.s.Type(n.proto)), "f", false, false, 0, false, "int f(int * p, struct s, ...)"},
		{Options{}, ProtoOf(n.s.Type(n.proto)), "f", true, false, 0, false, "inline int f(int * p, struct s, ...)"},
		{Options{}, ProtoOf(n.s.Type(n.proto)), "fp", false, true, 6, true, "int    (*fp)(int * p, struct s, ...)"},
		{Options{}, ProtoOf(n.s.Type(n.proto)), "fp", false, true, -6, true, "int    (*fp)(int * p, struct s, ...)"},
		{Options{ParamAttrs: attrs}, ProtoOf(n.s.Type(n.proto)), "f", false, false, 0, false, "int f(int * p, __tag struct s, ...)"},
		{Options{NoParmNames: true}, ProtoOf(n.s.Type(n.proto)), "f", false, false, 0, false, "int f(int *, struct s, ...)"},
		{Options{}, Proto{Ret: n.intT}, "v", false, false, 0, false, "int v(void)"},
		{Options{}, Proto{Ret: n.intT, List: dw, Unspec: true}, "d", false, false, 0, false,
			"int d(const int  x, int (*cb)(int * p, struct s, ...), <ERROR: type 999 not found> bad, ...)"},
		{Options{NoParmNames: true}, Proto{Ret: n.cst, List: dw[:1]}, "d", false, false, 0, false, "const int d(const int)"},
	} {
		var b cfmt.Buf
		NewNamer(n.s, nil, c.o).AppendFtype(&b, c.p, c.name, c.inlined, c.isPointer, c.typeSpacing, c.isPrototype)
		if string(b) != c.want {
			t.Errorf("%+v %q: %q, want %q", c.o, c.name, b, c.want)
		}
	}
}

func TestRename(t *testing.T) {
	n := newNames()
	nm := NewNamer(n.s, nil, Options{})
	other := nm.WithOptions(Options{NoParmNames: true})
	nm.Rename(n.st, "s__1")
	if got := other.TagName(n.fptr, NameBuf); got != "int ()(int *, struct s__1, ...) *" {
		t.Errorf("renamed: %q", got)
	}
}
