package encode

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
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
	reg := func(r byte) string { return string([]byte{opReg0 + r}) }
	loc := func(expr string) funcAttrs {
		var fx funcAttrs
		fx.has = fxLoc | fxLocExpr
		fx.loc.init()
		fx.loc.add([]byte(expr), 0, 8)
		return fx
	}
	sub := func(off uint64, name string, low uint64) die {
		return die{off: off, depth: 1, tag: tagSubprogram, children: true, has: hasName | hasType, name: name, typ: longT,
			fx: funcAttrs{has: fxLowPC | fxNoCall, lowPC: low}}
	}
	prm := func(off uint64, name string, typ uint64, fx funcAttrs) die {
		return die{off: off, depth: 2, tag: tagFormalParameter, has: hasName | hasType, name: name, typ: typ, fx: fx}
	}
	dies := []die{
		{off: longT, depth: 1, tag: tagBaseType, has: hasName | hasByteSize | hasEncoding, name: "long", byteSize: 8, encoding: ateSigned},
		{off: pairT, depth: 1, tag: tagStructureType, children: true, has: hasName | hasByteSize, name: "pair", byteSize: 16},
		{off: 12, depth: 2, tag: tagMember, has: hasName | hasType | hasMemberLoc, name: "a", typ: longT, memberLoc: 0},
		{off: 13, depth: 2, tag: tagMember, has: hasName | hasType | hasMemberLoc, name: "b", typ: longT, memberLoc: 8},
		{off: pairTD, depth: 1, tag: tagTypedef, has: hasName | hasType, name: "pair_t", typ: pairT},
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
		{off: 60, depth: 1, tag: tagSubprogram, children: true, has: hasName | hasType, name: "f_orig", typ: longT,
			fx: funcAttrs{has: fxInline | fxNoCall}},
		prm(61, "p", pairT, funcAttrs{}),
		{off: 70, depth: 1, tag: tagSubprogram, children: true, fx: funcAttrs{has: fxOrigin | fxLowPC, origin: 60, lowPC: 0x1400}},
		{off: 71, depth: 2, tag: tagFormalParameter, fx: func() funcAttrs {
			fx := loc(opPiece8 + reg(rdi) + opPiece8)
			fx.has |= fxOrigin
			fx.origin = 61
			return fx
		}()},
	}
	info := x86ELF(map[string]uint64{"f_b": 0x1000, "f_a": 0x1100, "f_full": 0x1200, "f_keep": 0x1300, "f_orig": 0x1400})
	protos := func(s *btf.Spec) map[string]string {
		out := map[string]string{}
		for id := btf.TypeID(1); id < s.NextID(); id++ {
			tt := s.Type(id)
			if tt.Kind() != btf.KindFunc {
				continue
			}
			p := s.Type(tt.Ref())
			var ps []string
			for i := 0; i < p.Vlen(); i++ {
				pp := p.Param(i)
				ps = append(ps, s.Type(pp.Type).Name()+" "+s.String(pp.NameOff))
			}
			out[tt.Name()] = strings.Join(ps, ", ")
		}
		return out
	}
	check := func(what string, got, want map[string]string) {
		t.Helper()
		if keys(got) != keys(want) {
			t.Errorf("%s: FUNCs %v, want %v", what, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s(%s), want (%s)", what, k, got[k], v)
			}
		}
	}
	s, rep := convertFuncsBy(t, true, DefaultFeatures|FeatTrueSignature, info, dies)
	check("true_signature", protos(s), map[string]string{
		"f_b":    "long p__b, long x",
		"f_a":    "long p__a",
		"f_full": "pair p",
		"f_keep": "pair p, long y",
		"f_orig": "pair p",
	})
	if len(rep.Skipped) != 0 {
		t.Errorf("true_signature: skipped %v", rep.Skipped)
	}
	// Without true_signature nothing is renamed: the aggregates keep
	// two registers each, so x (in rsi, where rdx was expected) is in
	// an unexpected register, which a struct parameter excuses.
	s, rep = convertFuncsBy(t, true, DefaultFeatures, info, dies)
	check("default", protos(s), map[string]string{
		"f_b":    "pair p, long x",
		"f_a":    "pair_t p",
		"f_full": "pair p",
		"f_keep": "pair p, long y",
		"f_orig": "pair p",
	})
	if len(rep.Skipped) != 0 {
		t.Errorf("default: skipped %v", rep.Skipped)
	}
}

// TestPieceFields: which bytes of each register's word an aggregate's
// pieces start at, over all entries of a location list; a leading piece
// only moves the offset; a constant location records nothing.
func TestPieceFields(t *testing.T) {
	for _, tc := range []struct {
		exprs         []string
		first, second uint64
	}{
		{[]string{"\x93\x08\x55\x93\x08"}, 0, 1},                                    // piece 8, rdi piece 8
		{[]string{"\x55\x93\x08"}, 1, 0},                                            // rdi piece 8
		{[]string{"\x55\x93\x08\x54\x93\x08"}, 1, 1},                                // rdi piece 8, rsi piece 8
		{[]string{"\x55\x93\x04\x54\x93\x04"}, 1 | 1<<4, 0},                         // two ints in one word
		{[]string{"\x55\x93\x08", "\x93\x08\x54\x93\x08"}, 1, 1},                    // a list: a, then b
		{[]string{"\x30\x93\x08\x55\x93\x08"}, 0, 0},                                // lit0 first: a constant
		{[]string{"\x93\x04\x55\x93\x04\x54\x93\x08"}, 1 << 4, 1 << 0},              // hole of 4, then two
		{[]string{"\x55\x93\x08\x93\x08\x93\x08\x54\x93\x08"}, 1, 1 | 1<<8 | 1<<16}, // beyond 16 bytes
	} {
		var l locSummary
		l.init()
		for n, e := range tc.exprs {
			l.add([]byte(e), n, 8)
		}
		if l.first != tc.first || l.second != tc.second {
			t.Errorf("%q: first %#x second %#x, want %#x %#x", tc.exprs, l.first, l.second, tc.first, tc.second)
		}
	}
}
