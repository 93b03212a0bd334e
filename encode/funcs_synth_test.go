package encode

import (
	"sort"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
)

// Hand-made DWARF for what gcc 12 and clang 14 do not emit on demand:
// gcc 15's DW_AT_GNU_annotation on functions and parameters, and
// parameter locations that pahole 1.31 rejects (a parameter in another
// register than the x86-64 calling convention's, a constant in place of
// a parameter of an optimized clone, parameters of an out-of-line
// instance in another order than its abstract origin's).

// x86ELF is an ELF side for synthetic units: x86-64 registers and a
// symbol table with the given function symbols (name -> address).
func x86ELF(syms map[string]uint64) *elfInfo {
	info := &elfInfo{addrSize: 8, nrRegParams: 6, aggTwoRegs: true, parts: map[string]bool{}}
	copy(info.regParams[:], []int8{5, 4, 1, 2, 8, 9, -1, -1})
	var names []string
	for n := range syms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		base := n
		if i := strings.IndexByte(n, '.'); i >= 0 {
			base = n[:i]
		}
		if k := len(info.funcs); k > 0 && info.funcs[k-1].name == base {
			info.funcs[k-1].syms = append(info.funcs[k-1].syms, elfFuncSym{n, syms[n]})
			continue
		}
		info.funcs = append(info.funcs, elfFunc{name: base, syms: []elfFuncSym{{n, syms[n]}}})
	}
	info.byName = map[string]int32{}
	for i, f := range info.funcs {
		info.byName[f.name] = int32(i)
	}
	return info
}

// convertFuncs runs one synthetic unit through the per-unit pass, the
// merge and the function selection.
func convertFuncs(t *testing.T, feat Features, info *elfInfo, dies []die) (*btf.Spec, FuncReport) {
	return convertFuncsBy(t, false, feat, info, dies)
}

// convertFuncsBy is convertFuncs for a unit of gcc's or clang's.
func convertFuncsBy(t *testing.T, clang bool, feat Features, info *elfInfo, dies []die) (*btf.Spec, FuncReport) {
	t.Helper()
	c := newUnitConv(Options{Features: feat}, false)
	fc := &funcConv{elf: info, feat: feat}
	root := die{off: 0, depth: 0, tag: dwarf.TagCompileUnit, children: true, language: 0x1d}
	c.add(&root)
	fc.reset()
	fc.clang = clang
	for i := range dies {
		d := dies[i]
		if d.tag == dwarf.TagFormalParameter && d.fx.has&fxLoc == 0 {
			d.fx.loc.init()
		}
		c.add(&d)
		fc.entry(&d)
	}
	f := c.emit()
	fc.emitFuncsVars(c, f)
	m := newMerger()
	if err := m.add(f); err != nil {
		t.Fatal(err)
	}
	var rep FuncReport
	if err := m.finishFx(Options{Features: feat, Report: &rep}, info); err != nil {
		t.Fatal(err)
	}
	return m.finish(), rep
}

func reg(n int8) locSummary { return locSummary{regSmall: n, regBig: n} }

func TestSyntheticParameterLocations(t *testing.T) {
	const (
		intT = 10
		rdi  = 5
		rsi  = 4
	)
	p := func(off uint64, depth int, name string, fx funcAttrs) die {
		d := die{off: off, depth: depth, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: name, typ: intT, fx: fx}
		return d
	}
	sub := func(off uint64, name string, low uint64) die {
		return die{off: off, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType | hasExternal, name: name, typ: intT,
			fx: funcAttrs{has: fxLowPC, lowPC: low}}
	}
	dies := []die{
		{off: intT, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "int", byteSize: 4, encoding: dwarf.EncSigned},
		// f_ok(a in rdi, b in rsi): encoded.
		sub(20, "f_ok", 0x1000),
		p(21, 2, "a", funcAttrs{has: fxLoc, loc: reg(rdi)}),
		p(22, 2, "b", funcAttrs{has: fxLoc, loc: reg(rsi)}),
		// f_unexp(a in rsi): the first parameter belongs in rdi.
		sub(30, "f_unexp", 0x1100),
		p(31, 2, "a", funcAttrs{has: fxLoc, loc: reg(rsi)}),
		// f_const.constprop.0(a = constant, b in rsi): a is optimized
		// out (b stays in the second register).
		sub(40, "f_const", 0x1200),
		p(41, 2, "a", funcAttrs{has: fxConstValue}),
		p(42, 2, "b", funcAttrs{has: fxLoc, loc: reg(rsi)}),
		// f_reord: an abstract origin (a, b) and an out-of-line instance
		// listing b before a.
		{off: 50, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: "f_reord", typ: intT, fx: funcAttrs{has: fxInline}},
		p(51, 2, "a", funcAttrs{}),
		p(52, 2, "b", funcAttrs{}),
		{off: 60, depth: 1, tag: dwarf.TagSubprogram, children: true, fx: funcAttrs{has: fxOrigin | fxLowPC, origin: 50, lowPC: 0x1300}},
		{off: 61, depth: 2, tag: dwarf.TagFormalParameter, fx: funcAttrs{has: fxOrigin | fxLoc, origin: 52, loc: reg(rdi)}},
		{off: 62, depth: 2, tag: dwarf.TagFormalParameter, fx: funcAttrs{has: fxOrigin | fxLoc, origin: 51, loc: reg(rsi)}},
		// f_gnu(a): gcc 15 decl tags on the function and its parameter.
		{off: 70, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString, name: "btf_decl_tag", constString: "fn_tag"},
		{off: 71, depth: 1, tag: dwarf.TagGNUAnnotation, has: hasName | hasConstString, name: "btf_decl_tag", constString: "arg_tag"},
		{off: 80, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType | hasGNUAnnotation, name: "f_gnu", typ: intT, annotation: 70,
			fx: funcAttrs{has: fxLowPC | fxAnnotated, lowPC: 0x1400}},
		{off: 81, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType | hasGNUAnnotation, name: "a", typ: intT, annotation: 71,
			fx: funcAttrs{has: fxLoc | fxAnnotated, loc: reg(rdi)}},
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
	wantSkip := []SkippedFunc{{"f_const", ReasonOptimized}, {"f_reord", ReasonReordered}, {"f_unexp", ReasonUnexpectedReg}}
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
			fx: funcAttrs{has: fxLowPC | fxNoCall, lowPC: 0x1000}},
		{off: 21, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "a", typ: intT, fx: funcAttrs{has: fxLoc, loc: reg(5)}},
		{off: 22, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "b", typ: intT},
		{off: 23, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: "c", typ: intT, fx: funcAttrs{has: fxLoc, loc: reg(4)}},
	}
	info := x86ELF(map[string]uint64{"f_nocall": 0x1000})
	s, rep := convertFuncsBy(t, true, DefaultFeatures, info, dies)
	if len(rep.Skipped) != 1 || rep.Skipped[0] != (SkippedFunc{"f_nocall", ReasonOptimized}) {
		t.Errorf("default: skipped %v, want f_nocall: %s", rep.Skipped, ReasonOptimized)
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
