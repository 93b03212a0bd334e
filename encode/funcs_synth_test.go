package encode

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// Hand-made DWARF for what gcc 12 and clang 14 do not emit on demand:
// gcc 15's DW_AT_GNU_annotation on functions and parameters, and
// parameter locations that pahole 1.31 rejects (a parameter in another
// register than the x86-64 calling convention's, a constant in place of
// a parameter of an optimized clone, parameters of an out-of-line
// instance in another order than its abstract origin's).

// x86ELF is an ELF side for synthetic units: x86-64 registers and a
// symbol table with the given function symbols (name -> address).
func x86ELF(syms map[string]uint64) *funcvar.ELF { return funcvar.NewELF(elf.EM_X86_64, syms) }

// funcEntry is d as the walk hands it to function selection: its own
// record (d.fn) with the position and the attributes the converter's
// record has too.
func funcEntry(d die) funcvar.Entry {
	e := d.fn
	e.Off, e.Depth, e.Tag, e.Children = d.off, d.depth, d.tag, d.children
	e.Name, e.Type, e.Annotation, e.ConstString = d.name, d.typ, d.annotation, d.constString
	if d.has&hasType != 0 {
		e.Has |= funcvar.HasType
	}
	if d.has&hasDeclaration != 0 {
		e.Has |= funcvar.Declaration | funcvar.HasDeclaration
	}
	if d.has&hasGNUAnnotation != 0 {
		e.Has |= funcvar.HasAnnotation
	}
	return e
}

// convertFuncs runs one synthetic unit through the per-unit pass, the
// merge and the function selection.
func convertFuncs(t *testing.T, feat Features, info *funcvar.ELF, dies []die) (*btf.Spec, funcvar.Report) {
	return convertFuncsBy(t, false, feat, info, dies)
}

// convertFuncsBy is convertFuncs for a unit of gcc's or clang's.
func convertFuncsBy(t *testing.T, clang bool, feat Features, info *funcvar.ELF, dies []die) (*btf.Spec, funcvar.Report) {
	t.Helper()
	c := newUnitConv(Options{Features: feat}, false)
	funcs := funcvar.NewUnit(info, funcOptions(feat))
	root := die{off: 0, depth: 0, tag: dwarf.TagCompileUnit, children: true, language: 0x1d}
	c.add(&root)
	producer := "GNU C17"
	if clang {
		producer = "clang version 14"
	}
	funcs.Begin(producer, nil)
	for i := range dies {
		d := dies[i]
		c.add(&d)
		e := funcEntry(d)
		funcs.Add(&e)
	}
	f := c.emit()
	funcs.Finish(c, &f.funcs)
	m := newMerger()
	m.funcs = funcvar.NewSelection(info, funcOptions(feat))
	if err := m.add(f); err != nil {
		t.Fatal(err)
	}
	var rep funcvar.Report
	s, err := m.result(Options{Features: feat, Report: &rep, NoDedup: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, rep
}

// reg is the location of a parameter in DWARF register n.
func reg(n int8) funcvar.Location {
	var l funcvar.Location
	l.Add([]byte{byte(dwarf.OpReg0) + byte(n)}, 0, 8)
	return l
}

func TestSyntheticParameterLocations(t *testing.T) {
	const (
		intT = 10
		rdi  = 5
		rsi  = 4
	)
	p := func(off uint64, depth int, name string, fn funcvar.Entry) die {
		d := die{off: off, depth: depth, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: name, typ: intT, fn: fn}
		return d
	}
	sub := func(off uint64, name string, low uint64) die {
		return die{off: off, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: name, typ: intT,
			fn: funcvar.Entry{Has: funcvar.HasLowPC | funcvar.External, LowPC: low}}
	}
	dies := []die{
		{off: intT, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "int", byteSize: 4, encoding: dwarf.EncSigned},
		// f_ok(a in rdi, b in rsi): encoded.
		sub(20, "f_ok", 0x1000),
		p(21, 2, "a", funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(rdi)}),
		p(22, 2, "b", funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(rsi)}),
		// f_unexp(a in rsi): the first parameter belongs in rdi.
		sub(30, "f_unexp", 0x1100),
		p(31, 2, "a", funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(rsi)}),
		// f_const.constprop.0(a = constant, b in rsi): a is optimized
		// out (b stays in the second register).
		sub(40, "f_const", 0x1200),
		p(41, 2, "a", funcvar.Entry{Has: funcvar.HasConstValue}),
		p(42, 2, "b", funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(rsi)}),
		// f_reord: an abstract origin (a, b) and an out-of-line instance
		// listing b before a.
		{off: 50, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: "f_reord", typ: intT, fn: funcvar.Entry{Has: funcvar.Inline}},
		p(51, 2, "a", funcvar.Entry{}),
		p(52, 2, "b", funcvar.Entry{}),
		{off: 60, depth: 1, tag: dwarf.TagSubprogram, children: true, fn: funcvar.Entry{Has: funcvar.HasOrigin | funcvar.HasLowPC, Origin: 50, LowPC: 0x1300}},
		{off: 61, depth: 2, tag: dwarf.TagFormalParameter, fn: funcvar.Entry{Has: funcvar.HasOrigin | funcvar.HasLocation, Origin: 52, Loc: reg(rdi)}},
		{off: 62, depth: 2, tag: dwarf.TagFormalParameter, fn: funcvar.Entry{Has: funcvar.HasOrigin | funcvar.HasLocation, Origin: 51, Loc: reg(rsi)}},
		// f_gnu(a): gcc 15 decl tags on the function and its parameter.
		{off: 70, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString, name: "btf_decl_tag", constString: "fn_tag"},
		{off: 71, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString, name: "btf_decl_tag", constString: "arg_tag"},
		{off: 80, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType | hasGNUAnnotation, name: "f_gnu", typ: intT, annotation: 70,
			fn: funcvar.Entry{Has: funcvar.HasLowPC | funcvar.HasAnnotation, LowPC: 0x1400}},
		{off: 81, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType | hasGNUAnnotation, name: "a", typ: intT, annotation: 71,
			fn: funcvar.Entry{Has: funcvar.HasLocation | funcvar.HasAnnotation, Loc: reg(rdi)}},
	}
	info := x86ELF(map[string]uint64{"f_ok": 0x1000, "f_unexp": 0x1100, "f_const.constprop.0": 0x1200, "f_reord": 0x1300, "f_gnu": 0x1400})
	s, rep := convertFuncs(t, DefaultFeatures, info, dies)
	got := map[string]string{}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		tt := s.Type(id)
		switch tt.Kind() {
		case btf.KindFunc:
			got[tt.Name()] = "FUNC"
		case btf.KindDeclTag:
			got[tt.Name()] = s.Type(tt.Ref()).Name() + "/" + itoa(int(tt.ComponentIdx()))
		}
	}
	want := map[string]string{"f_ok": "FUNC", "f_gnu": "FUNC", "fn_tag": "f_gnu/-1", "arg_tag": "f_gnu/0"}
	if keys(got) != keys(want) {
		t.Errorf("encoded %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	wantSkip := []funcvar.Skipped{{Name: "f_const", Reason: funcvar.ReasonOptimized}, {Name: "f_reord", Reason: funcvar.ReasonReordered}, {Name: "f_unexp", Reason: funcvar.ReasonUnexpectedReg}}
	if len(rep.Skipped) != len(wantSkip) {
		t.Fatalf("skipped %v, want %v", rep.Skipped, wantSkip)
	}
	for i := range wantSkip {
		if rep.Skipped[i] != wantSkip[i] {
			t.Errorf("skipped %v, want %v", rep.Skipped[i], wantSkip[i])
		}
	}
	// decl_tag off: no tags; true_signature: the clone under its name.
	s, _ = convertFuncs(t, DefaultFeatures&^FeatDeclTag, info, dies)
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if s.Type(id).Kind() == btf.KindDeclTag {
			t.Errorf("decl_tag off: %s", s.Type(id).Name())
		}
	}
	s, _ = convertFuncs(t, DefaultFeatures|FeatTrueSignature, info, dies)
	found := false
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if tt := s.Type(id); tt.Kind() == btf.KindFunc && tt.Name() == "f_const.constprop.0" {
			found = true
		}
	}
	if !found {
		t.Errorf("true_signature: no FUNC f_const.constprop.0")
	}
}

// TestSyntheticClangTrueSignature: clang marks a function whose signature
// it changed with DW_CC_nocall (clang 14 does not yet). By default pahole
// leaves such a function with optimized-out parameters out; with
// true_signature it encodes the parameters actually passed: here a (in
// rdi) and c (in rsi), b being neither passed nor constant.
func TestSyntheticClangTrueSignature(t *testing.T) {
	const intT = 10
	dies := []die{
		{off: intT, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "int", byteSize: 4, encoding: dwarf.EncSigned},
		{off: 20, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: "f_nocall", typ: intT,
			fn: funcvar.Entry{Has: funcvar.HasLowPC | funcvar.NoCall, LowPC: 0x1000}},
		{off: 21, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "a", typ: intT, fn: funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(5)}},
		{off: 22, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "b", typ: intT},
		{off: 23, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "c", typ: intT, fn: funcvar.Entry{Has: funcvar.HasLocation, Loc: reg(4)}},
	}
	info := x86ELF(map[string]uint64{"f_nocall": 0x1000})
	s, rep := convertFuncsBy(t, true, DefaultFeatures, info, dies)
	if len(rep.Skipped) != 1 || rep.Skipped[0] != (funcvar.Skipped{Name: "f_nocall", Reason: funcvar.ReasonOptimized}) {
		t.Errorf("default: skipped %v, want f_nocall: %s", rep.Skipped, funcvar.ReasonOptimized)
	}
	s, rep = convertFuncsBy(t, true, DefaultFeatures|FeatTrueSignature, info, dies)
	var params []string
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		if tt := s.Type(id); tt.Kind() == btf.KindFunc && tt.Name() == "f_nocall" {
			p := s.Type(tt.Ref())
			for i := 0; i < p.Vlen(); i++ {
				params = append(params, s.String(p.Param(i).NameOff))
			}
		}
	}
	if strings.Join(params, ",") != "a,c" || len(rep.Skipped) != 0 {
		t.Errorf("true_signature: f_nocall(%v), skipped %v; want (a, c)", params, rep.Skipped)
	}
}
