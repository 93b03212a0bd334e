package funcvar

import (
	"debug/elf"
	"reflect"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// The decisions Selection.Finish takes after the merge, one rule a row,
// on hand-made candidates and symbol tables (the per-unit rules, which set
// the candidates' flags from DWARF locations, are what the flags stand
// for here). Each row's expectation is the rule's, as select.go's comment
// and pahole 1.32's btf_encoder.c state it: which names get a FUNC (in
// name order), the parameter names of their prototypes, and why the
// others are left out.

// selTypes is the merged type table the rows' prototypes name.
type selTypes struct {
	spec                   *btf.Spec
	int_, long, constInt   uint32
	ptrS1, ptrS2, ptrOther uint32 // pointers to two structs "s" and to struct "t"
}

func newSelTypes() *selTypes {
	s := btf.NewSpec()
	t := &selTypes{spec: s}
	add := func(name string, info, st uint32, ext ...uint32) uint32 {
		off := uint32(0)
		if name != "" {
			off = s.AddString(name)
		}
		return uint32(s.AddRaw(off, info, st, ext...))
	}
	const signed = 1 << 24
	t.int_ = add("int", btf.Info(btf.KindInt, 0, false), 4, signed|32)
	t.long = add("long", btf.Info(btf.KindInt, 0, false), 8, signed|64)
	t.constInt = add("", btf.Info(btf.KindConst, 0, false), t.int_)
	s1 := add("s", btf.Info(btf.KindStruct, 0, false), 0)
	s2 := add("s", btf.Info(btf.KindStruct, 0, false), 0)
	other := add("t", btf.Info(btf.KindStruct, 0, false), 0)
	t.ptrS1 = add("", btf.Info(btf.KindPtr, 0, false), s1)
	t.ptrS2 = add("", btf.Info(btf.KindPtr, 0, false), s2)
	t.ptrOther = add("", btf.Info(btf.KindPtr, 0, false), other)
	return t
}

// selCand is one candidate of a row: a subprogram of some unit.
type selCand struct {
	name   string
	addr   uint64 // 0: no address (hasAddr false)
	flags  candidateFlags
	ret    uint32   // the return type's ID (0: void)
	params []uint32 // type IDs; named p0, p1, ... unless names is set
	names  []string
	btf    bool // a FUNC of a compiler's BTF (AddFunc)
}

type selRow struct {
	name     string
	syms     map[string]uint64 // the ELF's function symbols
	partly   []string          // names with only .part/.cold symbols
	kfunc    map[string]uint32 // kfuncs of .BTF_ids, with their flags
	opts     Options
	cands    func(t *selTypes) []selCand
	encoded  []string            // FUNC names, in order
	protos   map[string][]string // parameter names of some FUNCs' prototypes
	skipped  map[string]string   // name -> reason
	tags     []string            // DECL_TAG names, in order
	mismatch string              // the first Mismatch reported: "count", "return", "param"; "" for none
}

func one(c selCand) func(*selTypes) []selCand {
	return func(*selTypes) []selCand { return []selCand{c} }
}

func TestSelectionRules(t *testing.T) {
	consistent := Options{Consistent: true}
	rows := []selRow{
		{name: "an ELF function at its symbol's address is kept",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   func(t *selTypes) []selCand { return []selCand{{name: "f", addr: 0x100, params: []uint32{t.int_}}} },
			encoded: []string{"f"}, protos: map[string][]string{"f": {"p0"}}},
		{name: "no ELF function symbol: left out, reported when it has an address",
			syms: map[string]uint64{"other": 0x300}, opts: consistent,
			cands:   func(t *selTypes) []selCand { return []selCand{{name: "g", addr: 0x200, flags: noSymbol}} },
			skipped: map[string]string{"g": ReasonNoSymbol}},
		{name: "no ELF function symbol and no address: left out, not reported",
			syms: map[string]uint64{"other": 0x300}, opts: consistent,
			cands: func(t *selTypes) []selCand { return []selCand{{name: "g", flags: noSymbol}} }},
		{name: "only .part/.cold symbols of the name",
			syms: map[string]uint64{"other": 0x300}, partly: []string{"g"}, opts: consistent,
			cands:   func(t *selTypes) []selCand { return []selCand{{name: "g", addr: 0x200, flags: noSymbol}} },
			skipped: map[string]string{"g": ReasonPartOnly}},
		{name: "unnamed parameters",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: unnamedParams}),
			skipped: map[string]string{"f": ReasonNoArgNames}},
		{name: "a parameter in an unexpected register",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: unexpectedReg}),
			skipped: map[string]string{"f": ReasonUnexpectedReg}},
		{name: "an uncertain parameter location",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: uncertainLoc}),
			skipped: map[string]string{"f": ReasonUncertainLoc}},
		{name: "reordered parameters",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: reorderedParams}),
			skipped: map[string]string{"f": ReasonReordered}},
		{name: "optimized-out parameters of a changed signature",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: optimizedParams | signatureChanged}),
			skipped: map[string]string{"f": ReasonOptimized}},
		{name: "optimized-out parameters, signature kept, at the plain symbol",
			syms: map[string]uint64{"f": 0x100}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: optimizedParams}),
			encoded: []string{"f"}},
		{name: "optimized-out parameters at an .isra clone's address",
			syms: map[string]uint64{"f.isra.0": 0x100, "zz": 0x900}, opts: consistent,
			cands:   one(selCand{name: "f", addr: 0x100, flags: optimizedParams}),
			skipped: map[string]string{"f": ReasonOptimized}},
		{name: "true_signature: optimized-out parameters of a changed signature are encoded",
			syms: map[string]uint64{"f": 0x100}, opts: Options{Consistent: true, TrueSignature: true},
			cands:   one(selCand{name: "f", addr: 0x100, flags: optimizedParams | signatureChanged}),
			encoded: []string{"f"}},
		{name: "true_signature: a clone at its own address is encoded under the clone's name",
			syms: map[string]uint64{"f.constprop.0": 0x100, "zz": 0x900}, opts: Options{Consistent: true, TrueSignature: true},
			cands:   one(selCand{name: "f", addr: 0x100, flags: optimizedParams}),
			encoded: []string{"f.constprop.0"}},
		{name: "prototypes that differ in a parameter's type",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.int_}}, {name: "h", params: []uint32{t.long}}}
			},
			skipped: map[string]string{"h": ReasonInconsistent}, mismatch: "param"},
		{name: "prototypes that differ in the return type",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, ret: t.ptrS1}, {name: "h", ret: t.ptrOther}}
			},
			skipped: map[string]string{"h": ReasonInconsistent}, mismatch: "return"},
		{name: "prototypes that differ in the parameter count",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.int_}}, {name: "h", params: []uint32{t.int_, t.int_}}}
			},
			skipped: map[string]string{"h": ReasonInconsistent}, mismatch: "count"},
		{name: "without consistent_func, differing prototypes are encoded",
			syms: map[string]uint64{"h": 0x100},
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.int_}}, {name: "h", params: []uint32{t.long}}}
			},
			encoded: []string{"h"}, mismatch: "param"},
		{name: "const is looked through when prototypes are compared",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.int_}}, {name: "h", params: []uint32{t.constInt}}}
			},
			encoded: []string{"h"}},
		{name: "const is looked through on either side",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.constInt}}, {name: "h", params: []uint32{t.int_}}}
			},
			encoded: []string{"h"}},
		{name: "structs match by name when prototypes are compared",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.ptrS1}}, {name: "h", params: []uint32{t.ptrS2}}}
			},
			encoded: []string{"h"}},
		{name: "one candidate's unexpected register leaves the name out",
			syms: map[string]uint64{"h": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "h", addr: 0x100, params: []uint32{t.int_}}, {name: "h", params: []uint32{t.int_}, flags: unexpectedReg}}
			},
			skipped: map[string]string{"h": ReasonUnexpectedReg}},
		{name: "symbols of one name at two addresses",
			syms: map[string]uint64{"a": 0x100, "a.constprop.0": 0x200, "zz": 0x900}, opts: consistent,
			cands:   one(selCand{name: "a", addr: 0x100}),
			skipped: map[string]string{"a": ReasonAmbiguous}},
		{name: "address 0 conflicts with no other (pahole's quirk)",
			syms: map[string]uint64{"a": 0, "a.constprop.0": 0x200, "zz": 0x900}, opts: consistent,
			cands:   one(selCand{name: "a", addr: 0x200}),
			encoded: []string{"a"}},
		{name: "the last name of the symbol table is not checked for two addresses (pahole's quirk)",
			syms: map[string]uint64{"z": 0x100, "z.constprop.0": 0x200}, opts: consistent,
			cands:   one(selCand{name: "z", addr: 0x100}),
			encoded: []string{"z"}},
		{name: "the prototype encoded is the candidate's at the symbol's address",
			syms: map[string]uint64{"k": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "k", params: []uint32{t.int_}, names: []string{"decl"}},
					{name: "k", addr: 0x300, params: []uint32{t.int_}, names: []string{"elsewhere"}},
					{name: "k", addr: 0x100, params: []uint32{t.int_}, names: []string{"def"}}}
			},
			encoded: []string{"k"}, protos: map[string][]string{"k": {"def"}}},
		{name: "with none at the symbol's address, the first with an address",
			syms: map[string]uint64{"k": 0x100}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "k", params: []uint32{t.int_}, names: []string{"decl"}},
					{name: "k", addr: 0x300, params: []uint32{t.int_}, names: []string{"elsewhere"}}}
			},
			encoded: []string{"k"}, protos: map[string][]string{"k": {"elsewhere"}}},
		{name: "FUNCs follow in name order, not candidate order",
			syms: map[string]uint64{"zeta": 0x100, "alpha": 0x200, "mid": 0x300}, opts: consistent,
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "zeta", addr: 0x100}, {name: "mid", addr: 0x300}, {name: "alpha", addr: 0x200}}
			},
			encoded: []string{"alpha", "mid", "zeta"}},
		{name: "a compiler's BTF FUNC whose name has only optimized clones",
			syms: map[string]uint64{"c.isra.0": 0x100, "zz": 0x900}, opts: Options{Consistent: true, FromBTF: true},
			cands:   func(t *selTypes) []selCand { return []selCand{{name: "c", btf: true, params: []uint32{t.int_}}} },
			skipped: map[string]string{"c": ReasonClonesOnly}},
		{name: "a compiler's BTF FUNC of an ELF function",
			syms: map[string]uint64{"c": 0x100}, opts: Options{Consistent: true, FromBTF: true},
			cands:   func(t *selTypes) []selCand { return []selCand{{name: "c", btf: true, params: []uint32{t.int_}}} },
			encoded: []string{"c"}},
		{name: "a compiler's BTF FUNC with unnamed parameters (a declaration) is not taken",
			syms: map[string]uint64{"c": 0x100}, opts: Options{Consistent: true, FromBTF: true},
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "c", btf: true, params: []uint32{t.int_}, names: []string{""}}}
			}},
		{name: "a compiler's BTF FUNC of no ELF function is not taken",
			syms: map[string]uint64{"other": 0x100}, opts: Options{Consistent: true, FromBTF: true},
			cands: func(t *selTypes) []selCand { return []selCand{{name: "c", btf: true}} }},
		{name: "kfuncs get bpf_kfunc and, with KF_FASTCALL, bpf_fastcall",
			syms:  map[string]uint64{"kf": 0x100, "kfast": 0x200, "plain": 0x300},
			kfunc: map[string]uint32{"kf": 0, "kfast": kfFastcall}, opts: Options{Consistent: true, DeclTags: true, KfuncTags: true},
			cands: func(t *selTypes) []selCand {
				return []selCand{{name: "kf", addr: 0x100}, {name: "kfast", addr: 0x200}, {name: "plain", addr: 0x300}}
			},
			encoded: []string{"kf", "kfast", "plain"}, tags: []string{"bpf_kfunc", "bpf_kfunc", "bpf_fastcall"}},
		{name: "kfunc tags need decl_tag",
			syms: map[string]uint64{"kf": 0x100}, kfunc: map[string]uint32{"kf": kfFastcall}, opts: Options{Consistent: true, KfuncTags: true},
			cands:   one(selCand{name: "kf", addr: 0x100}),
			encoded: []string{"kf"}},
	}
	for _, r := range rows {
		t.Run(strings.ReplaceAll(r.name, " ", "_"), func(t *testing.T) {
			got := runSelection(t, r)
			if !reflect.DeepEqual(got.encoded, r.encoded) {
				t.Errorf("encoded %q, want %q", got.encoded, r.encoded)
			}
			for name, want := range r.protos {
				if !reflect.DeepEqual(got.protos[name], want) {
					t.Errorf("%s's parameters %q, want %q", name, got.protos[name], want)
				}
			}
			if len(got.skipped) != len(r.skipped) || (len(r.skipped) > 0 && !reflect.DeepEqual(got.skipped, r.skipped)) {
				t.Errorf("skipped %q, want %q", got.skipped, r.skipped)
			}
			if !reflect.DeepEqual(got.tags, r.tags) {
				t.Errorf("decl tags %q, want %q", got.tags, r.tags)
			}
			if got.mismatch != r.mismatch {
				t.Errorf("first mismatch %v, want %v", got.mismatch, r.mismatch)
			}
		})
	}
}

type selResult struct {
	encoded  []string
	protos   map[string][]string
	skipped  map[string]string
	tags     []string
	mismatch string
}

// runSelection makes the row's ELF side and candidates, runs Finish and
// reads back what it added.
func runSelection(t *testing.T, r selRow) selResult {
	t.Helper()
	e := NewELF(elf.EM_X86_64, r.syms)
	for _, n := range r.partly {
		e.partlyInlined[n] = true
	}
	for n, fl := range r.kfunc {
		fn := e.findFunc(n)
		if fn == nil {
			t.Fatalf("kfunc %s has no symbol", n)
		}
		fn.kfunc, fn.kfuncFlags = true, fl
	}
	ty := newSelTypes()
	out := ty.spec
	first := out.NextID()
	s := NewSelection(e, r.opts)
	for _, c := range r.cands(ty) {
		var params []uint32
		for i, p := range c.params {
			n := "p" + string(rune('0'+i))
			if c.names != nil {
				n = c.names[i]
			}
			off := uint32(0)
			if n != "" {
				off = out.AddString(n)
			}
			params = append(params, off, p)
		}
		if c.btf {
			s.AddFunc(c.name, out.AddString(c.name), c.ret, params, nil)
			continue
		}
		m := merged{candidate: candidate{name: c.name, addr: c.addr, hasAddr: c.addr != 0, flags: c.flags, ret: c.ret, allParams: true}}
		if c.flags&(noSymbol|unnamedParams) == 0 {
			i, ok := e.funcByName[c.name]
			if !ok {
				t.Fatalf("candidate %s: no symbol and no noSymbol flag", c.name)
			}
			m.symbolsIndex = i
		}
		m.params0 = uint32(len(s.words))
		m.nParams = uint32(len(c.params))
		s.words = append(s.words, params...)
		s.funcs = append(s.funcs, m)
	}
	var rep Report
	if err := s.Finish(out, out.AddString, &rep); err != nil {
		t.Fatal(err)
	}
	res := selResult{protos: map[string][]string{}, skipped: map[string]string{}}
	for id := first; id < out.NextID(); id++ {
		ty := out.Type(id)
		switch ty.Kind() {
		case btf.KindFunc:
			res.encoded = append(res.encoded, ty.Name())
			_, info, _, ext := out.RawType(btf.TypeID(ty.SizeType()))
			var names []string
			for i := 0; i < btf.VlenOf(info); i++ {
				names = append(names, out.String(ext[2*i]))
			}
			res.protos[ty.Name()] = names
		case btf.KindDeclTag:
			res.tags = append(res.tags, ty.Name())
		}
	}
	for _, sk := range rep.Skipped {
		res.skipped[sk.Name] = sk.Reason
	}
	if len(rep.Mismatches) > 0 {
		res.mismatch = map[MismatchKind]string{ParamCount: "count", ReturnType: "return", ParamType: "param"}[rep.Mismatches[0].What]
	}
	return res
}

// TestVariableRules: which VARs of a compiler's BTF AddVar keeps (the
// DWARF route's rules on a variable's place, name and size) and the
// DATASECs Finish makes of them: one per section, entries by offset, the
// section's size the end of its last entry.
func TestVariableRules(t *testing.T) {
	// pahole's btf_name_valid: at most KSYM_NAME_LEN (128) characters.
	max, long := strings.Repeat("m", 128), strings.Repeat("x", 129)
	type v struct {
		name         string
		section      int
		off, size    uint64
		noType, kept bool
	}
	vars := []v{
		{"percpu_v", 1, 8, 4, false, true},
		// .data: without global_var its variables are not encoded
		{"in_data", 2, 0, 4, false, false},
		{"no_section", 0, 0, 4, false, false}, // SHN_UNDEF
		{"past_sections", 9, 0, 4, false, false},
		{"__UNIQUE_ID_x", 1, 16, 4, false, false}, // macros' artefacts
		{"__tpstrtab_x", 1, 16, 4, false, false},
		{"9lives", 1, 16, 4, false, false}, // no C identifier, nor 129 characters
		{long, 1, 16, 4, false, false},
		{"untyped", 1, 16, 4, true, false}, // no type; then sizes 0 and 2^32, an offset of 2^32
		{"empty", 1, 16, 0, false, false},
		{"huge", 1, 16, 1 << 32, false, false},
		{"far", 1, 1 << 32, 4, false, false},
		{"percpu_v", 1, 8, 4, false, false},    // a place taken
		{"percpu_v", 1, 0, 8, false, true},     // the name at another place
		{"_under.dot9", 1, 32, 2, false, true}, // '_', '.', digits after the first
		{max, 1, 40, 1, false, true},
	}
	e := &ELF{sections: []section{{}, {name: percpuSection, encoded: true}, {name: ".data"}}}
	s := NewSelection(e, Options{PerCPUVars: true, FromBTF: true})
	out := btf.NewSpec()
	intID := uint32(out.AddRaw(out.AddString("int"), btf.Info(btf.KindInt, 0, false), 4, 1<<24|32))
	for _, x := range vars {
		typ := intID
		if x.noType {
			typ = 0
		}
		got := s.AddVar(out, x.name, out.AddString(x.name), typ, btf.LinkageGlobal, VarPlace{Section: x.section, Off: x.off, SymbolSize: x.size}, x.size, nil)
		if got != x.kept {
			t.Errorf("AddVar(%.20s in section %d at %#x, size %d): %v, want %v", x.name, x.section, x.off, x.size, got, x.kept)
		}
	}
	if err := s.Finish(out, out.AddString, nil); err != nil {
		t.Fatal(err)
	}
	// One DATASEC, .data..percpu: the kept VARs by offset (0, 8, 32,
	// 40), size 40+1.
	var secs []btf.TypeID
	for id := btf.TypeID(1); id < out.NextID(); id++ {
		if out.Type(id).Kind() == btf.KindDatasec {
			secs = append(secs, id)
		}
	}
	if len(secs) != 1 || out.Type(secs[0]).Name() != percpuSection || out.Type(secs[0]).SizeType() != 41 {
		t.Fatalf("DATASECs %v, want one %s of size 41", secs, percpuSection)
	}
	_, info, _, ext := out.RawType(secs[0])
	var offs []uint32
	var names []string
	for i := 0; i < btf.VlenOf(info); i++ {
		names = append(names, out.Type(btf.TypeID(ext[3*i])).Name())
		offs = append(offs, ext[3*i+1])
	}
	if !reflect.DeepEqual(offs, []uint32{0, 8, 32, 40}) || !reflect.DeepEqual(names, []string{"percpu_v", "percpu_v", "_under.dot9", max}) {
		t.Errorf("DATASEC entries %.40q at %v, want percpu_v, percpu_v, _under.dot9, m... at 0, 8, 32, 40", names, offs)
	}
}
