package ctype

import (
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/cfmt"
)

// markPrinter prints what an Emitter asks for as one line each, named by
// its Namer.
type markPrinter struct {
	n       *Namer
	renamed []string
}

func (p *markPrinter) name(id btf.TypeID) string {
	t := p.n.spec.Type(id)
	return p.n.Prefix(t) + p.n.Name(t)
}

func (p *markPrinter) Emit(b *cfmt.Buf, id btf.TypeID, prefix, suffix *string) {
	pre, suf := "", ""
	if prefix != nil {
		pre = *prefix + " "
	}
	if suffix != nil {
		suf = " " + *suffix
	}
	b.Str(pre + p.name(id) + " {...}" + suf + "\n")
}

func (p *markPrinter) Typedef(b *cfmt.Buf, id btf.TypeID) {
	b.Str("typedef " + p.n.spec.Type(id).Name() + ";\n")
}

func (p *markPrinter) Enum(b *cfmt.Buf, id btf.TypeID, suffix *string) {
	s := ""
	if suffix != nil {
		s = " " + *suffix
	}
	b.Str(p.name(id) + " {...}" + s + ";\n")
}

func (p *markPrinter) CheckUnnaturalAlignments(btf.TypeID) {}

func (p *markPrinter) Rename(id btf.TypeID, name string) {
	p.renamed = append(p.renamed, name)
	p.n.Rename(id, name)
}

// emitUnit is a unit with a struct that needs every kind of definition.
func emitUnit() (*btf.Spec, btf.TypeID, btf.TypeID) {
	s := btf.NewSpec()
	intT := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	atomic := s.Add("atomic_uint", btf.KindInt, 0, false, 4, 32)
	inner := s.Add("inner", btf.KindStruct, 1, false, 4, s.AddString("i"), uint32(intT), 0)
	other := s.Add("other", btf.KindStruct, 1, false, 4, s.AddString("i"), uint32(intT), 0)
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(other))
	en := s.Add("color", btf.KindEnum, 1, false, 4, s.AddString("RED"), 0)
	anon := s.Add("", btf.KindStruct, 1, false, 4, s.AddString("a"), uint32(intT), 0)
	td := s.Add("anon_t", btf.KindTypedef, 0, false, uint32(anon))
	arr := s.Add("", btf.KindArray, 0, false, 0, uint32(td), uint32(intT), 2)
	proto := s.Add("", btf.KindFuncProto, 1, false, uint32(intT), s.AddString("e"), uint32(en))
	fp := s.Add("", btf.KindPtr, 0, false, uint32(proto))
	cb := s.Add("cb_t", btf.KindTypedef, 0, false, uint32(fp))
	outer := s.Add("outer", btf.KindStruct, 6, false, 64,
		s.AddString("in"), uint32(inner), 0,
		s.AddString("o"), uint32(ptr), 64,
		s.AddString("a"), uint32(atomic), 128,
		s.AddString("arr"), uint32(arr), 160,
		s.AddString("cb"), uint32(cb), 256,
		s.AddString("again"), uint32(ptr), 320)
	shadow := s.Add("inner", btf.KindUnion, 0, false, 4)
	return s, outer, shadow
}

func TestEmitter(t *testing.T) {
	s, outer, shadow := emitUnit()
	e := NewEmissions()
	run := func(ids ...btf.TypeID) (string, *markPrinter) {
		n := NewNamer(s, nil, Options{})
		p := &markPrinter{n: n}
		em := e.Unit(n, p, EmitOptions{})
		var b cfmt.Buf
		for _, id := range ids {
			if em.TypeDefs(&b, id) {
				em.Emit(&b, id, nil, nil)
			}
		}
		return string(b), p
	}
	got, _ := run(outer)
	want := "struct inner {...}\n\n" +
		"struct other;\n\n" +
		"typedef _Atomic unsigned int atomic_uint;\n\n" +
		"typedef struct  {...} anon_t\n\n" + // the fake printer spaces an anonymous name
		"enum color {...};\n\n" +
		"typedef cb_t;\n\n" +
		"struct outer {...}\n"
	if got != want {
		t.Errorf("first unit:\n%s\nwant:\n%s", got, want)
	}
	// A second unit with the same types: all emitted already; its union
	// named like an emitted struct is renamed.
	got, p := run(outer, shadow)
	if want := "union inner__1 {...}\n"; got != want || fmt.Sprint(p.renamed) != "[inner__1]" {
		t.Errorf("second unit: %q (renamed %v), want %q", got, p.renamed, want)
	}
	// A third: the renamed union was emitted under its new name.
	if got, _ := run(shadow); got != "" {
		t.Errorf("third unit: %q", got)
	}
}

func TestEmitterOptions(t *testing.T) {
	s := btf.NewSpec()
	atomic := s.Add("atomic_llong", btf.KindInt, 0, false, 8, 64)
	va := s.Add("__builtin_va_list", btf.KindTypedef, 0, false, uint32(atomic))
	st := s.Add("s", btf.KindStruct, 2, false, 16, s.AddString("a"), uint32(atomic), 0, s.AddString("v"), uint32(va), 64)
	for _, c := range []struct {
		o    EmitOptions
		want string
	}{
		{EmitOptions{}, "typedef _Atomic long long atomic_llong;\n\ntypedef __builtin_va_list;\n\nstruct s {...}\n"},
		{EmitOptions{SkipAtomicTypedefs: true, SkipBuiltinTypedefs: true}, "\nstruct s {...}\n"},
	} {
		n := NewNamer(s, nil, Options{})
		em := NewEmissions().Unit(n, &markPrinter{n: n}, c.o)
		var b cfmt.Buf
		if em.TypeDefs(&b, st) {
			em.Emit(&b, st, nil, nil)
		}
		if string(b) != c.want {
			t.Errorf("%+v: %q, want %q", c.o, b, c.want)
		}
	}
}

// TestEmitterAtomicTypedef: a typedef of a DW_TAG_atomic_type (a VOLATILE
// the facts mark) emits what the type under it needs first.
func TestEmitterAtomicTypedef(t *testing.T) {
	s := btf.NewSpec()
	intT := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	pair := s.Add("pair", btf.KindStruct, 1, false, 4, s.AddString("a"), uint32(intT), 0)
	vol := s.Add("", btf.KindVolatile, 0, false, uint32(pair))
	td := s.Add("atomic_pair", btf.KindTypedef, 0, false, uint32(vol))
	for _, atomic := range []bool{false, true} {
		f := &dwarffacts.Facts{}
		if atomic {
			f.SetAtomic(vol)
		}
		n := NewNamer(s, f, Options{})
		em := NewEmissions().Unit(n, &markPrinter{n: n}, EmitOptions{})
		var b cfmt.Buf
		em.TypeDefs(&b, td)
		want := "typedef atomic_pair;\n"
		if atomic {
			want = "struct pair {...}\n" + want
		}
		if string(b) != want {
			t.Errorf("atomic %v: %q, want %q", atomic, b, want)
		}
	}
}

// TestEmitterClass: a C++ class (DW_TAG_class_type) a member has is
// neither defined nor declared before its container, as pahole's
// tag__emit_definitions has no case for it; a function's own class is.
func TestEmitterClass(t *testing.T) {
	s := btf.NewSpec()
	intT := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	pt := s.Add("Pt", btf.KindStruct, 1, false, 4, s.AddString("x"), uint32(intT), 0)
	ptr := s.Add("", btf.KindPtr, 0, false, uint32(pt))
	box := s.Add("Box", btf.KindStruct, 2, false, 16, s.AddString("a"), uint32(pt), 0, s.AddString("p"), uint32(ptr), 64)
	f := &dwarffacts.Facts{}
	f.SetClass(pt)
	n := NewNamer(s, f, Options{})
	em := NewEmissions().Unit(n, &markPrinter{n: n}, EmitOptions{})
	var b cfmt.Buf
	if em.TypeDefs(&b, box) {
		em.Emit(&b, box, nil, nil)
	}
	if em.TypeDefs(&b, pt) {
		em.Emit(&b, pt, nil, nil)
	}
	if want := "struct Box {...}\nclass Pt {...}\n"; string(b) != want {
		t.Errorf("%q, want %q", b, want)
	}
}
