package encode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestSyntheticTrueSignatureMember: with true_signature, pahole 1.31
// encodes a clang function whose signature clang changed (DW_CC_nocall)
// with the parameters actually passed. An aggregate in two registers
// whose DW_OP_piece location carries exactly one field in exactly one
// register is passed as that member: the parameter is named
// param__member and typed as the member (dwarves v1.31-38
// dwarf_loader.c: parameter__multi_exprs records the byte offset each
// piece starts at, per register word; parameter__finish_piece_decode
// keeps a single field; get_member_with_offset finds the struct member
// at that offset through typedefs; function__analyze_parameter_locations
// applies it unless both registers carry fields or the next parameter
// sits past the aggregate's registers; btf_encoder.c names it
// "%s__%s"). A parameter that takes its name and type from an abstract
// origin has no DW_AT_type of its own, so no member is found for it and
// it stays whole.
//
// clang 14 does not mark changed signatures with DW_CC_nocall (it does
// scalarize such aggregates: `DW_OP_piece 0x8, DW_OP_reg5 RDI,
// DW_OP_piece 0x8` for a struct of two longs whose second member alone
// is passed), so the DWARF is hand-made and the expected prototypes come
// from the rule above.
func TestSyntheticTrueSignatureMember(t *testing.T) {
	const (
		longT  = 10
		pairT  = 11 // struct pair { long a; long b; }
		pairTD = 14 // typedef struct pair pair_t
		rdi    = 5
		rsi    = 4
		rdx    = 1
	)
	// Location expressions (DWARF register numbers: rdi 5, rsi 4, rdx 1).
	const (
		opPiece8 = "\x93\x08"
	)
	reg := func(r byte) string { return string([]byte{byte(dwarf.OpReg0) + r}) }
	loc := func(expr string) funcvar.Entry {
		var fn funcvar.Entry
		fn.Has = funcvar.HasLocation | funcvar.HasLocExpr
		fn.Loc.Add([]byte(expr), 0, 8)
		return fn
	}
	sub := func(off uint64, name string, low uint64) die {
		return die{off: off, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: name, typ: longT,
			fn: funcvar.Entry{Has: funcvar.HasLowPC | funcvar.NoCall, LowPC: low}}
	}
	prm := func(off uint64, name string, typ uint64, fn funcvar.Entry) die {
		return die{off: off, depth: 2, tag: dwarf.TagFormalParameter, has: hasName | hasType, name: name, typ: typ, fn: fn}
	}
	dies := []die{
		{off: longT, depth: 1, tag: dwarf.TagBaseType, has: hasName | hasByteSize | hasEncoding, name: "long", byteSize: 8, encoding: dwarf.EncSigned},
		{off: pairT, depth: 1, tag: dwarf.TagStructureType, children: true, has: hasName | hasByteSize, name: "pair", byteSize: 16},
		{off: 12, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasMemberLoc, name: "a", typ: longT, memberLoc: 0},
		{off: 13, depth: 2, tag: dwarf.TagMember, has: hasName | hasType | hasMemberLoc, name: "b", typ: longT, memberLoc: 8},
		{off: pairTD, depth: 1, tag: dwarf.TagTypedef, has: hasName | hasType, name: "pair_t", typ: pairT},
		// f_b(struct pair p, long x): only p.b is passed, in rdi; x in rsi.
		sub(20, "f_b", 0x1000),
		prm(21, "p", pairT, loc(opPiece8+reg(rdi)+opPiece8)),
		prm(22, "x", longT, loc(reg(rsi))),
		// f_a(pair_t p): only p.a, in rdi, found through the typedef.
		sub(30, "f_a", 0x1100),
		prm(31, "p", pairTD, loc(reg(rdi)+opPiece8)),
		// f_full(struct pair p): both members, rdi and rsi: whole.
		sub(40, "f_full", 0x1200),
		prm(41, "p", pairT, loc(reg(rdi)+opPiece8+reg(rsi)+opPiece8)),
		// f_keep(struct pair p, long y): p.a alone in rdi, but y is in
		// rdx, the register after both of p's: p keeps its registers.
		sub(50, "f_keep", 0x1300),
		prm(51, "p", pairT, loc(reg(rdi)+opPiece8)),
		prm(52, "y", longT, loc(reg(rdx))),
		// f_orig: an abstract origin (DW_CC_nocall) and an out-of-line
		// instance whose parameter (origin only) has p.b in rdi.
		{off: 60, depth: 1, tag: dwarf.TagSubprogram, children: true, has: hasName | hasType, name: "f_orig", typ: longT,
			fn: funcvar.Entry{Has: funcvar.Inline | funcvar.NoCall}},
		prm(61, "p", pairT, funcvar.Entry{}),
		{off: 70, depth: 1, tag: dwarf.TagSubprogram, children: true, fn: funcvar.Entry{Has: funcvar.HasOrigin | funcvar.HasLowPC, Origin: 60, LowPC: 0x1400}},
		{off: 71, depth: 2, tag: dwarf.TagFormalParameter, fn: func() funcvar.Entry {
			fn := loc(opPiece8 + reg(rdi) + opPiece8)
			fn.Has |= funcvar.HasOrigin
			fn.Origin = 61
			return fn
		}()},
	}
	info := x86ELF(map[string]uint64{"f_b": 0x1000, "f_a": 0x1100, "f_full": 0x1200, "f_keep": 0x1300, "f_orig": 0x1400})
	for _, tc := range []struct {
		what string
		feat Features
		want map[string]string
	}{
		{"true_signature", DefaultFeatures | FeatTrueSignature, map[string]string{
			"f_b":    "long(long p__b, long x)",
			"f_a":    "long(long p__a)",
			"f_full": "long(struct pair p)",
			"f_keep": "long(struct pair p, long y)",
			"f_orig": "long(struct pair p)",
		}},
		// Without true_signature nothing is renamed: the aggregates
		// keep two registers each, so x (in rsi, where rdx was
		// expected) is in an unexpected register, which a struct
		// parameter excuses.
		{"default", DefaultFeatures, map[string]string{
			"f_b":    "long(struct pair p, long x)",
			"f_a":    "long(pair_t p)",
			"f_full": "long(struct pair p)",
			"f_keep": "long(struct pair p, long y)",
			"f_orig": "long(struct pair p)",
		}},
	} {
		s, rep := convertFuncsBy(t, true, tc.feat, info, dies)
		got := funcProtos(s)
		if keys(got) != keys(tc.want) {
			t.Errorf("%s: FUNCs %v, want %v", tc.what, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s %s, want %s", tc.what, k, got[k], v)
			}
		}
		if len(rep.Skipped) != 0 {
			t.Errorf("%s: skipped %v", tc.what, rep.Skipped)
		}
	}
}

// clangAggSrc: clang 14 -O2 passes only what foo and bar use of their
// struct arguments (scalar replacement): foo's a is f1 alone in rdi
// (`DW_OP_reg5 RDI, DW_OP_piece 0x8`), b both members in rsi and rdx;
// bar's a is f2 alone in rdi (`DW_OP_piece 0x8, DW_OP_reg5 RDI,
// DW_OP_piece 0x8`), x in rsi.
const clangAggSrc = `struct t { long f1; long f2; };
__attribute__((noinline)) static long foo(struct t a, struct t b, int i)
{
	return a.f1 + b.f1 + b.f2 + i;
}
__attribute__((noinline)) static long bar(struct t a, long x)
{
	return a.f2 * x;
}
struct t p1, p2;
int i;
long x;
int main(void)
{
	return (int)foo(p1, p2, i) + (int)bar(p1, x);
}
`

// markNoCall adds DW_AT_calling_convention DW_CC_nocall, as
// DW_FORM_implicit_const (so that .debug_info is untouched), to the
// abbreviations of clang's assembly output for defined subprograms
// without DW_AT_external (the static functions), and returns how many
// it changed.
func markNoCall(asm string) (string, int) {
	lines := strings.Split(asm, "\n")
	var out []string
	n := 0
	inAbbrev := false
	var entry []string
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), ".section") {
			inAbbrev = strings.Contains(l, ".debug_abbrev")
		}
		if !inAbbrev {
			out = append(out, l)
			continue
		}
		if strings.HasSuffix(l, "# Abbreviation Code") {
			entry = entry[:0]
		}
		if strings.HasSuffix(l, "# EOM(1)") {
			e := strings.Join(entry, "\n")
			if strings.Contains(e, "# DW_TAG_subprogram") && strings.Contains(e, "# DW_AT_low_pc") && !strings.Contains(e, "# DW_AT_external") {
				out = append(out, "\t.byte\t54\t# DW_AT_calling_convention", "\t.byte\t33\t# DW_FORM_implicit_const", "\t.byte\t3\t# DW_CC_nocall")
				n++
			}
		}
		entry = append(entry, l)
		out = append(out, l)
	}
	return strings.Join(out, "\n"), n
}

// TestClangTrueSignatureMember: the rule of
// TestSyntheticTrueSignatureMember on clang 14's own locations. clang 14
// changes foo's and bar's signatures without saying so; newer clang marks
// such functions DW_CC_nocall, which is added here to clang 14's output
// (its assembly's abbreviations) for the two static functions. With
// true_signature pahole 1.31's rule gives foo(long a__f1, struct t b,
// int i): a's pieces carry one field, at offset 0 of the first register
// (f1, long), and b, in rsi, is not two registers past a; b's pieces
// fill both registers, so b stays whole. bar(long a__f2, long x): a's
// one field is at offset 0 of the second register's word, i.e. offset 8
// (f2). By default (and on clang 14's unmarked output) nothing changes:
// the parameters after a struct are in "unexpected" registers, which a
// struct parameter excuses, so both keep their DWARF prototypes.
func TestClangTrueSignatureMember(t *testing.T) {
	testc.Require(t, "clang-14")
	dir := t.TempDir()
	src := filepath.Join(dir, "agg.c")
	if err := os.WriteFile(src, []byte(clangAggSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	asm := filepath.Join(dir, "agg.s")
	testc.Run(t, "clang-14", "-O2", "-gdwarf-5", "-S", "-o", asm, src)
	text, err := os.ReadFile(asm)
	if err != nil {
		t.Fatal(err)
	}
	marked, n := markNoCall(string(text))
	if n != 1 {
		t.Fatalf("%d static subprogram abbreviations in clang's output, want 1 (foo and bar share it)", n)
	}
	plainObj, obj := filepath.Join(dir, "plain.o"), filepath.Join(dir, "agg.o")
	testc.Run(t, "clang-14", "-c", "-o", plainObj, asm)
	if err := os.WriteFile(asm, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "clang-14", "-c", "-o", obj, asm)

	protos := func(path string, feat Features) map[string]string {
		t.Helper()
		s, err := EncodeFile(path, Options{Features: feat})
		if err != nil {
			t.Fatal(err)
		}
		validate(t, filepath.Base(path), s.Marshal(nil))
		return funcProtos(s)
	}
	dwarfSig := map[string]string{
		"foo":  "long(struct t a, struct t b, int i)",
		"bar":  "long(struct t a, long x)",
		"main": "int()",
	}
	for _, tc := range []struct {
		what string
		path string
		feat Features
		want map[string]string
	}{
		{"DW_CC_nocall, true_signature", obj, DefaultFeatures | FeatTrueSignature, map[string]string{
			"foo":  "long(long a__f1, struct t b, int i)",
			"bar":  "long(long a__f2, long x)",
			"main": "int()",
		}},
		{"DW_CC_nocall, default", obj, DefaultFeatures, dwarfSig},
		{"clang 14 as is, true_signature", plainObj, DefaultFeatures | FeatTrueSignature, dwarfSig},
	} {
		got := protos(tc.path, tc.feat)
		if keys(got) != keys(tc.want) {
			t.Errorf("%s: FUNCs %v, want %v", tc.what, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s %s, want %s", tc.what, k, got[k], v)
			}
		}
	}
}
