package funcvar

import (
	"debug/elf"
	"testing"

	"github.com/btfkit/btfkit/dwarf"
)

// The per-unit rules (Unit.Finish, params.go's checks of parameter
// locations against x86-64's calling convention: rdi, rsi, rdx, rcx, r8,
// r9, DWARF registers 5, 4, 1, 2, 8, 9; two registers for an aggregate of
// up to 16 bytes), one a row, on hand-made entries: the flags each
// candidate carries to the merge, which select_test.go's rows decide by.

// Type entries of the rows' unit, by offset.
const (
	tInt    = 0x10 // int, 4 bytes
	tS      = 0x20 // struct S, 16 bytes
	tP      = 0x30 // struct P, 12 bytes, packed
	tQ      = 0x40 // struct Q, 12 bytes
	tPtrInt = 0x50 // int *
)

type unitTypes struct{ strs map[string]uint32 }

func (unitTypes) Type(off uint64) (Type, bool) {
	switch off {
	case tInt:
		return Type{Tag: dwarf.TagBaseType, Name: "int", Size: 4}, true
	case tS:
		return Type{Tag: dwarf.TagStructureType, Name: "S", Size: 16}, true
	case tP:
		return Type{Tag: dwarf.TagStructureType, Name: "P", Size: 12}, true
	case tQ:
		return Type{Tag: dwarf.TagStructureType, Name: "Q", Size: 12}, true
	case tPtrInt:
		return Type{Tag: dwarf.TagPointerType, HasType: true, Type: tInt}, true
	}
	return Type{}, false
}
func (t unitTypes) Size(off uint64, addrSize int) uint64 { x, _ := t.Type(off); return x.Size }
func (unitTypes) Packed(off uint64, _ int) bool          { return off == tP }
func (unitTypes) Member(uint64, uint64) (Member, bool)   { return Member{}, false }
func (unitTypes) ID(off uint64) uint32                   { return uint32(off) }
func (t unitTypes) String(s string) uint32 {
	if s == "" {
		return 0
	}
	if _, ok := t.strs[s]; !ok {
		t.strs[s] = uint32(len(t.strs) + 1)
	}
	return t.strs[s]
}
func (unitTypes) DeclTags(uint64, func(string)) {}

// Locations of a parameter on entry.
var (
	inRDI      = []byte{0x55}                               // DW_OP_reg5
	inRSI      = []byte{0x54}                               // DW_OP_reg4
	inRDX      = []byte{0x51}                               // DW_OP_reg1
	inRCX      = []byte{0x52}                               // DW_OP_reg2
	inR8       = []byte{0x58}                               // DW_OP_reg8
	inR9       = []byte{0x59}                               // DW_OP_reg9
	onStack    = []byte{0x91, 0x00}                         // DW_OP_fbreg 0
	inRDIRSI   = []byte{0x55, 0x93, 0x08, 0x54, 0x93, 0x08} // rdi piece 8, rsi piece 8
	inRSIRDX   = []byte{0x54, 0x93, 0x08, 0x51, 0x93, 0x08} // rsi piece 8, rdx piece 8
	noLocation []byte
)

// uParam is a formal parameter of a row's function.
type uParam struct {
	name  string
	typ   uint64
	loc   []byte // nil: no DW_AT_location
	konst bool   // DW_AT_const_value
}

func uParams(locs ...[]byte) []uParam {
	ps := make([]uParam, len(locs))
	for i, l := range locs {
		ps[i] = uParam{name: string(rune('a' + i)), typ: tInt, loc: l}
	}
	return ps
}

type unitRow struct {
	name     string
	producer string // "" is gcc's
	fn       string
	has      Flags // the subprogram's flags (NoCall, Declaration, ...)
	params   []uParam
	want     candidateFlags
	none     bool // no candidate at all
}

func TestUnitRules(t *testing.T) {
	withStruct := func(first []byte, rest ...[]byte) []uParam {
		return append([]uParam{{name: "s", typ: tS, loc: first}}, uParams(rest...)...)
	}
	seventh := func(typ uint64) []uParam {
		ps := uParams(inRDI, inRSI, inRDX, inRCX, inR8, inR9)
		return append(ps, uParam{name: "g", typ: typ, loc: onStack})
	}
	rows := []unitRow{
		{name: "parameters in their registers", fn: "f", params: uParams(inRDI, inRSI, inRDX)},
		{name: "a pointer is one word", fn: "f", params: []uParam{{name: "p", typ: tPtrInt, loc: inRDI}, {name: "b", typ: tInt, loc: inRSI}}},
		{name: "the second parameter in the third register", fn: "f", params: uParams(inRDI, inRDX), want: unexpectedReg},
		{name: "the first parameter in the second register", fn: "f", params: uParams(inRSI), want: unexpectedReg},
		{name: "a parameter without a location", fn: "f", params: uParams(inRDI, noLocation), want: optimizedParams},
		{name: "a constant parameter", fn: "f", params: []uParam{{name: "a", typ: tInt, loc: inRDI}, {name: "b", typ: tInt, konst: true}}, want: optimizedParams},
		{name: "a register parameter found on the stack", fn: "f", params: uParams(onStack), want: optimizedParams},
		{name: "a 16-byte struct takes two registers", fn: "f", params: withStruct(inRDIRSI, inRDX)},
		{name: "a struct by value excuses an unexpected register", fn: "f", params: withStruct(inRDIRSI, inRSI)},
		{name: "a struct in the wrong registers, still excused", fn: "f", params: withStruct(inRSIRDX, inRCX)},
		{name: "a seventh parameter goes on the stack", fn: "f", params: seventh(tInt)},
		{name: "after a struct in two registers, the sixth parameter goes on the stack", fn: "f",
			params: append(withStruct(inRDIRSI, inRDX, inRCX, inR8, inR9), uParam{name: "e", typ: tInt, loc: onStack})},
		{name: "a packed named struct after the register parameters", fn: "f", params: seventh(tP), want: uncertainLoc},
		{name: "a struct after the register parameters that is not packed", fn: "f", params: seventh(tQ)},
		{name: "an unnamed parameter", fn: "f", params: []uParam{{typ: tInt, loc: inRDI}}, want: unnamedParams},
		{name: "not an ELF function", fn: "nosym", params: uParams(inRDI), want: noSymbol},
		{name: "a declaration is no candidate", fn: "f", has: HasDeclaration | Declaration, params: uParams(inRDI), none: true},
		{name: "clang: DW_CC_nocall is a changed signature", producer: "clang version 17", fn: "f", has: NoCall, params: uParams(inRDI), want: signatureChanged},
		{name: "clang: DW_CC_nocall of an inline function is not", producer: "clang version 17", fn: "f", has: NoCall | Inline, params: uParams(inRDI)},
		{name: "gcc: DW_CC_nocall says nothing", fn: "f", has: NoCall, params: uParams(inRDI)},
		{name: "clang: a parameter on the stack is not checked", producer: "clang version 17", fn: "f", params: uParams(onStack)},
		{name: "clang: a parameter in the wrong register", producer: "clang version 17", fn: "f", params: uParams(inRDI, inRDX), want: unexpectedReg},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			c, ok := runUnit(t, r)
			if r.none {
				if ok {
					t.Errorf("a candidate, flags %#x; want none", c.flags)
				}
				return
			}
			if !ok {
				t.Fatal("no candidate")
			}
			if c.flags != r.want {
				t.Errorf("flags %#x, want %#x", c.flags, r.want)
			}
		})
	}
}

// TestUnitReordered: an out-of-line instance whose parameters name their
// abstract origin's in another order is reordered; in order, it is not.
func TestUnitReordered(t *testing.T) {
	for _, swap := range []bool{false, true} {
		e := NewELF(elf.EM_X86_64, map[string]uint64{"f": 0x100})
		u := NewUnit(e, Options{})
		u.Begin("GNU C17", nil)
		// The abstract origin (inline, no address) and its parameters.
		u.Add(&Entry{Off: 0x100, Depth: 1, Tag: dwarf.TagSubprogram, Children: true, Name: "f", Has: Inline})
		u.Add(&Entry{Off: 0x110, Depth: 2, Tag: dwarf.TagFormalParameter, Name: "a", Type: tInt, Has: HasType})
		u.Add(&Entry{Off: 0x120, Depth: 2, Tag: dwarf.TagFormalParameter, Name: "b", Type: tInt, Has: HasType})
		// The instance, its parameters naming the origin's.
		first, second := uint64(0x110), uint64(0x120)
		if swap {
			first, second = second, first
		}
		u.Add(&Entry{Off: 0x200, Depth: 1, Tag: dwarf.TagSubprogram, Children: true, Origin: 0x100, LowPC: 0x100, Has: HasOrigin | HasLowPC})
		for i, o := range []uint64{first, second} {
			pe := Entry{Off: 0x210 + uint64(i)*0x10, Depth: 2, Tag: dwarf.TagFormalParameter, Origin: o, Has: HasOrigin | HasLocation | HasLocExpr}
			pe.Loc.Add([][]byte{inRDI, inRSI}[i], 0, 8)
			u.Add(&pe)
		}
		var out Candidates
		u.Finish(unitTypes{strs: map[string]uint32{}}, &out)
		var got *candidate
		for i := range out.funcs {
			if out.funcs[i].addr == 0x100 {
				got = &out.funcs[i]
			}
		}
		if got == nil {
			t.Fatalf("swap %v: no candidate for the instance", swap)
		}
		if (got.flags&reorderedParams != 0) != swap {
			t.Errorf("swap %v: flags %#x", swap, got.flags)
		}
	}
}

// runUnit adds the row's function to a unit and returns its candidate.
func runUnit(t *testing.T, r unitRow) (candidate, bool) {
	t.Helper()
	e := NewELF(elf.EM_X86_64, map[string]uint64{"f": 0x1000})
	u := NewUnit(e, Options{})
	producer := r.producer
	if producer == "" {
		producer = "GNU C17 12.2.0"
	}
	u.Begin(producer, nil)
	has := r.has | HasLowPC | HasType
	u.Add(&Entry{Off: 0x100, Depth: 1, Tag: dwarf.TagSubprogram, Children: true, Name: r.fn, Type: tInt, LowPC: 0x1000, Has: has})
	for i, p := range r.params {
		pe := Entry{Off: 0x110 + uint64(i)*0x10, Depth: 2, Tag: dwarf.TagFormalParameter, Name: p.name, Type: p.typ, Has: HasType}
		if p.loc != nil {
			pe.Has |= HasLocation | HasLocExpr
			pe.Loc.Add(p.loc, 0, 8)
		}
		if p.konst {
			pe.Has |= HasConstValue
		}
		u.Add(&pe)
	}
	var out Candidates
	u.Finish(unitTypes{strs: map[string]uint32{}}, &out)
	if len(out.funcs) == 0 {
		return candidate{}, false
	}
	return out.funcs[0], true
}
