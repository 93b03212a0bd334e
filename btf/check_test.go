package btf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// Type IDs of the every-kind BTF that checkSpec builds; the corruption
// cases below change one of them.
const (
	cInt TypeID = iota + 1
	cChar
	cPtr
	cArray
	cStruct
	cUnion
	cEnum
	cFwd
	cTypedef
	cVolatile
	cConst
	cRestrict
	cProto
	cFunc
	cVar
	cDatasec
	cFloat
	cDeclTag
	cTypeTag
	cTagPtr
	cEnum64
	cBitfields
	cVarargs
	cList
	cListPtr
	cOuter
	cAnonUnion
	cInt3
	cInt128
	cDouble
	cFloatStruct
)

// checkSpec builds a small base BTF with every kind, every kind_flag form
// and a legal reference loop. The kernel accepts it (TestCheckSpecValid).
func checkSpec() *Spec {
	s := NewSpec()
	n := s.AddString
	m := func(name string, typ TypeID, off uint32) []uint32 { return []uint32{n(name), uint32(typ), off} }
	cat := func(ws ...[]uint32) []uint32 {
		var out []uint32
		for _, w := range ws {
			out = append(out, w...)
		}
		return out
	}
	ids := []TypeID{
		s.Add("int", KindInt, 0, false, 4, IntSigned<<24|32),
		s.Add("char", KindInt, 0, false, 1, IntSigned<<24|8),
		s.Add("", KindPtr, 0, false, uint32(cInt)),
		s.Add("", KindArray, 0, false, 0, uint32(cInt), uint32(cInt), 4),
		s.Add("s", KindStruct, 3, false, 32, cat(m("a", cInt, 0), m("b", cPtr, 64), m("c", cArray, 128))...),
		s.Add("u", KindUnion, 2, false, 4, cat(m("x", cInt, 0), m("y", cChar, 0))...),
		s.Add("e", KindEnum, 2, false, 4, n("A"), 0, n("B"), 1),
		s.Add("f", KindFwd, 0, false, 0),
		s.Add("t", KindTypedef, 0, false, uint32(cInt)),
		s.Add("", KindVolatile, 0, false, uint32(cInt)),
		s.Add("", KindConst, 0, false, uint32(cVolatile)),
		s.Add("", KindRestrict, 0, false, uint32(cPtr)),
		s.Add("", KindFuncProto, 2, false, uint32(cInt), n("a"), uint32(cInt), n("b"), uint32(cPtr)),
		s.Add("fn", KindFunc, LinkageGlobal, false, uint32(cProto)),
		s.Add("v", KindVar, 0, false, uint32(cInt), LinkageGlobal),
		s.Add(".data", KindDatasec, 1, false, 4, uint32(cVar), 0, 4),
		s.Add("float", KindFloat, 0, false, 4),
		s.Add("tag", KindDeclTag, 0, false, uint32(cStruct), 0),
		s.Add("user", KindTypeTag, 0, false, uint32(cInt)),
		s.Add("", KindPtr, 0, false, uint32(cTypeTag)),
		s.Add("e64", KindEnum64, 1, false, 8, n("C"), 0, 1<<8),
		s.Add("bf", KindStruct, 3, true, 4, cat(m("x", cInt, 3<<24|0), m("y", cInt, 5<<24|3), m("z", cEnum, 4<<24|8))...),
		s.Add("", KindFuncProto, 2, false, 0, n("a"), uint32(cInt), 0, 0),
		s.Add("list", KindStruct, 1, false, 8, m("next", cListPtr, 0)...),
		s.Add("", KindPtr, 0, false, uint32(cList)),
		s.Add("outer", KindStruct, 1, false, 4, m("", cAnonUnion, 0)...),
		s.Add("", KindUnion, 1, false, 4, m("q", cInt, 0)...),
		s.Add("i3", KindInt, 0, false, 1, 3),
		s.Add("__int128", KindInt, 0, false, 16, IntSigned<<24|128),
		s.Add("double", KindFloat, 0, false, 8),
		s.Add("fs", KindStruct, 2, false, 16, cat(m("i", cInt, 0), m("d", cDouble, 64))...),
	}
	for i, id := range ids {
		if id != TypeID(i+1) {
			panic("checkSpec: IDs out of step with the constants")
		}
	}
	return s
}

// edit changes one type of s in place: fn gets copies of the header
// fields and trailing words and may change them.
func edit(s *Spec, id TypeID, fn func(nameOff, info, sizeType *uint32, ext []uint32)) {
	t := s.Type(id)
	nameOff, info, sizeType := t.NameOff(), t.Info(), t.SizeType()
	ext := append([]uint32(nil), t.Extra()...)
	fn(&nameOff, &info, &sizeType, ext)
	s.SetRaw(id, nameOff, info, sizeType, ext...)
}

func setName(s *Spec, id TypeID, name string) {
	off := s.AddString(name)
	edit(s, id, func(n, _, _ *uint32, _ []uint32) { *n = off })
}
func setInfo(s *Spec, id TypeID, f func(uint32) uint32) {
	edit(s, id, func(_, i, _ *uint32, _ []uint32) { *i = f(*i) })
}
func setSizeType(s *Spec, id TypeID, v uint32) {
	edit(s, id, func(_, _, st *uint32, _ []uint32) { *st = v })
}
func setExt(s *Spec, id TypeID, i int, v uint32) {
	edit(s, id, func(_, _, _ *uint32, e []uint32) { e[i] = v })
}
func setKindFlag(s *Spec, id TypeID) { setInfo(s, id, func(i uint32) uint32 { return i | 1<<31 }) }
func setVlenOnly(s *Spec, id TypeID, v uint32) {
	setInfo(s, id, func(i uint32) uint32 { return i&^0xffff | v })
}

// checkCase is one corruption of checkSpec and the rule it breaks.
type checkCase struct {
	name string
	rule Rule
	// strict cases break a convention the kernel does not enforce: only
	// Check with Strict reports them, and the kernel accepts them.
	strict bool
	mutate func(s *Spec)
	// raw, when set, corrupts the marshaled bytes instead (header and
	// section layout), checked with CheckRaw.
	raw func(b []byte) []byte
}

var checkCases = []checkCase{
	// Info word and kind.
	{name: "info reserved bit 20", rule: RuleInfo, mutate: func(s *Spec) { setInfo(s, cInt, func(i uint32) uint32 { return i | 1<<20 }) }},
	{name: "info reserved bit 29", rule: RuleInfo, mutate: func(s *Spec) { setInfo(s, cFwd, func(i uint32) uint32 { return i | 1<<29 }) }},
	{name: "unknown kind 20", rule: RuleKind, mutate: func(s *Spec) { s.AddRaw(0, 20<<24, 0) }},

	// Name offsets.
	{name: "type name offset past strings", rule: RuleNameOffset, mutate: func(s *Spec) {
		off := uint32(s.StringsLen()) + 10
		edit(s, cStruct, func(n, _, _ *uint32, _ []uint32) { *n = off })
	}},
	{name: "member name offset past strings", rule: RuleNameOffset, mutate: func(s *Spec) { setExt(s, cStruct, 0, uint32(s.StringsLen())) }},
	{name: "enumerator name offset past strings", rule: RuleNameOffset, mutate: func(s *Spec) { setExt(s, cEnum, 2, 1<<20) }},

	// Names required.
	{name: "FWD anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cFwd, "") }},
	{name: "TYPEDEF anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cTypedef, "") }},
	{name: "FUNC anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cFunc, "") }},
	{name: "VAR anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cVar, "") }},
	{name: "DATASEC anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cDatasec, "") }},
	{name: "DECL_TAG without value", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cDeclTag, "") }},
	{name: "TYPE_TAG without value", rule: RuleNameRequired, mutate: func(s *Spec) { setName(s, cTypeTag, "") }},
	{name: "enumerator anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setExt(s, cEnum, 0, 0) }},
	{name: "FUNC parameter anonymous", rule: RuleNameRequired, mutate: func(s *Spec) { setExt(s, cProto, 2, 0) }},

	// Names forbidden.
	{name: "PTR named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cPtr, "p") }},
	{name: "ARRAY named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cArray, "a") }},
	{name: "CONST named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cConst, "c") }},
	{name: "VOLATILE named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cVolatile, "v") }},
	{name: "RESTRICT named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cRestrict, "r") }},
	{name: "FUNC_PROTO named", rule: RuleNameForbidden, mutate: func(s *Spec) { setName(s, cProto, "p") }},

	// Names that are not identifiers.
	{name: "STRUCT name with dash", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cStruct, "a-b") }},
	{name: "member name starting with digit", rule: RuleNameInvalid, mutate: func(s *Spec) { setExt(s, cStruct, 3, s.AddString("1b")) }},
	{name: "TYPEDEF name with space", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cTypedef, "a b") }},
	{name: "FUNC name with dollar", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cFunc, "fn$1") }},
	{name: "VAR name with dash", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cVar, "v-1") }},
	{name: "DATASEC name with tab", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cDatasec, ".data\tx") }},
	{name: "DATASEC name with DEL", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cDatasec, ".data\x7f") }},
	{name: "FWD name of 513 bytes", rule: RuleNameInvalid, mutate: func(s *Spec) { setName(s, cFwd, strings.Repeat("f", 513)) }},
	{name: "enumerator name with colon", rule: RuleNameInvalid, mutate: func(s *Spec) { setExt(s, cEnum, 0, s.AddString("A::B")) }},
	{name: "parameter name with dash", rule: RuleNameInvalid, mutate: func(s *Spec) { setExt(s, cProto, 0, s.AddString("a-1")) }},

	// kind_flag.
	{name: "INT kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cInt) }},
	{name: "PTR kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cPtr) }},
	{name: "ARRAY kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cArray) }},
	{name: "TYPEDEF kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cTypedef) }},
	{name: "CONST kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cConst) }},
	{name: "FUNC kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cFunc) }},
	{name: "FUNC_PROTO kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cProto) }},
	{name: "VAR kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cVar) }},
	{name: "DATASEC kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cDatasec) }},
	{name: "FLOAT kind_flag", rule: RuleKindFlag, mutate: func(s *Spec) { setKindFlag(s, cFloat) }},

	// vlen where it must be 0 (these kinds' records do not grow with vlen).
	{name: "INT vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cInt, 1) }},
	{name: "PTR vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cPtr, 1) }},
	{name: "ARRAY vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cArray, 2) }},
	{name: "FWD vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cFwd, 1) }},
	{name: "TYPEDEF vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cTypedef, 1) }},
	{name: "VAR vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cVar, 1) }},
	{name: "FLOAT vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cFloat, 1) }},
	{name: "DECL_TAG vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cDeclTag, 1) }},
	{name: "TYPE_TAG vlen", rule: RuleVlen, mutate: func(s *Spec) { setVlenOnly(s, cTypeTag, 1) }},

	// Sizes.
	{name: "ENUM size 3", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cEnum, 3) }},
	{name: "ENUM size 0", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cEnum, 0) }},
	{name: "ENUM64 size 16", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cEnum64, 16) }},
	{name: "FLOAT size 6", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cFloat, 6) }},
	{name: "DATASEC size 0", rule: RuleSize, mutate: func(s *Spec) { s.Add(".bss", KindDatasec, 0, false, 0) }},
	{name: "ARRAY size field set", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cArray, 16) }},
	{name: "FWD type field set", rule: RuleSize, mutate: func(s *Spec) { setSizeType(s, cFwd, 1) }},

	// INT encoding.
	{name: "INT bits exceed size", rule: RuleInt, mutate: func(s *Spec) { setExt(s, cInt, 0, 40) }},
	{name: "INT offset+bits exceed 128", rule: RuleInt, mutate: func(s *Spec) { setSizeType(s, cInt128, 32); setExt(s, cInt128, 0, 8<<16|128) }},
	{name: "INT two encodings", rule: RuleInt, mutate: func(s *Spec) { setExt(s, cChar, 0, (IntSigned|IntChar)<<24|8) }},
	{name: "INT reserved encoding bits", rule: RuleInt, mutate: func(s *Spec) { setExt(s, cInt, 0, 1<<28|32) }},

	// Type IDs.
	{name: "PTR to missing type", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cPtr, 999) }},
	{name: "TYPEDEF to missing type", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cTypedef, 999) }},
	{name: "member of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cStruct, 1, 999) }},
	{name: "member of type void", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cStruct, 1, 0) }},
	{name: "array of void", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cArray, 0, 0) }},
	{name: "array index void", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cArray, 1, 0) }},
	{name: "VAR of void", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cVar, 0) }},
	{name: "parameter of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cProto, 1, 999) }},
	{name: "return of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cProto, 999) }},
	{name: "DECL_TAG of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cDeclTag, 999) }},
	{name: "DATASEC entry of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setExt(s, cDatasec, 0, 999) }},
	{name: "FUNC of missing type", rule: RuleTypeID, mutate: func(s *Spec) { setSizeType(s, cFunc, 999) }},

	// Kinds of referenced types.
	{name: "PTR to VAR", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cPtr, uint32(cVar)) }},
	{name: "VOLATILE of DATASEC", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cVolatile, uint32(cDatasec)) }},
	{name: "member of TYPEDEF of FUNC", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cTypedef, uint32(cFunc)); setExt(s, cStruct, 1, uint32(cTypedef)) }},
	{name: "VAR of TYPEDEF of FUNC", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cTypedef, uint32(cFunc)); setSizeType(s, cVar, uint32(cTypedef)) }},
	{name: "PTR to a later FUNC", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cPtr, uint32(cFunc)) }},
	{name: "PTR to TYPEDEF of a later FUNC", rule: RuleRefKind, mutate: func(s *Spec) {
		setSizeType(s, cTypedef, uint32(cFunc))
		setSizeType(s, cPtr, uint32(cTypedef))
	}},
	{name: "FUNC of INT", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cFunc, uint32(cInt)) }},
	{name: "DATASEC entry of INT", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cDatasec, 0, uint32(cInt)) }},
	{name: "DATASEC entry of FUNC", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cDatasec, 0, uint32(cFunc)) }},
	{name: "member of FUNC_PROTO", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cStruct, 1, uint32(cProto)) }},
	{name: "member of FWD", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cStruct, 1, uint32(cFwd)) }},
	{name: "member of VAR", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cStruct, 1, uint32(cVar)) }},
	{name: "member of TYPEDEF of void", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cTypedef, 0); setExt(s, cStruct, 1, uint32(cTypedef)) }},
	{name: "array of FWD", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cArray, 0, uint32(cFwd)) }},
	{name: "VAR of FUNC_PROTO", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cVar, uint32(cProto)) }},
	{name: "parameter of FWD", rule: RuleRefKind, mutate: func(s *Spec) { setExt(s, cProto, 1, uint32(cFwd)) }},
	{name: "return of FUNC_PROTO", rule: RuleRefKind, mutate: func(s *Spec) { setSizeType(s, cProto, uint32(cVarargs)) }},

	// Reference loops.
	{name: "TYPEDEF of itself", rule: RuleLoop, mutate: func(s *Spec) { setSizeType(s, cTypedef, uint32(cTypedef)) }},
	{name: "CONST-VOLATILE loop", rule: RuleLoop, mutate: func(s *Spec) { setSizeType(s, cVolatile, uint32(cConst)) }},
	{name: "PTR to itself", rule: RuleLoop, mutate: func(s *Spec) { setSizeType(s, cPtr, uint32(cPtr)) }},
	{name: "PTR-RESTRICT loop", rule: RuleLoop, mutate: func(s *Spec) { setSizeType(s, cPtr, uint32(cRestrict)); setExt(s, cStruct, 4, uint32(cInt)) }},
	{name: "STRUCT containing itself", rule: RuleLoop, mutate: func(s *Spec) { setExt(s, cList, 1, uint32(cList)) }},
	{name: "ARRAY of itself", rule: RuleLoop, mutate: func(s *Spec) { setExt(s, cArray, 0, uint32(cArray)) }},
	{name: "UNION-STRUCT loop by value", rule: RuleLoop, mutate: func(s *Spec) { setExt(s, cAnonUnion, 1, uint32(cOuter)) }},

	// Member offsets.
	{name: "UNION member not at 0", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cUnion, 5, 8) }},
	{name: "members out of order", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cStruct, 8, 32) }},
	{name: "PTR member not byte aligned", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cStruct, 5, 65) }},
	{name: "ARRAY member not byte aligned", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cStruct, 8, 129) }},
	{name: "FLOAT member misaligned", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cFloatStruct, 5, 32) }},
	{name: "kind_flag INT member not byte aligned", rule: RuleMemberOffset, mutate: func(s *Spec) { setExt(s, cBitfields, 5, 4) }},

	// Members past the end.
	{name: "member offset past struct size", rule: RuleMemberBounds, mutate: func(s *Spec) { setSizeType(s, cStruct, 8) }},
	{name: "ARRAY member runs past struct size", rule: RuleMemberBounds, mutate: func(s *Spec) { setSizeType(s, cStruct, 24) }},
	{name: "INT member runs past union size", rule: RuleMemberBounds, mutate: func(s *Spec) { setSizeType(s, cUnion, 2) }},
	{name: "bitfield runs past struct size", rule: RuleMemberBounds, mutate: func(s *Spec) { setSizeType(s, cBitfields, 1) }},
	{name: "FLOAT member runs past struct size", rule: RuleMemberBounds, mutate: func(s *Spec) { setSizeType(s, cFloatStruct, 12) }},

	// Bitfields.
	{name: "bitfield of PTR", rule: RuleBitfield, mutate: func(s *Spec) { setExt(s, cBitfields, 1, uint32(cPtr)) }},
	{name: "bitfield wider than its INT", rule: RuleBitfield, mutate: func(s *Spec) { setExt(s, cBitfields, 2, 33<<24) }},
	{name: "bitfield of irregular INT", rule: RuleBitfield, mutate: func(s *Spec) { setExt(s, cBitfields, 1, uint32(cInt3)) }},
	{name: "bitfield spanning 129 bits", rule: RuleBitfield, mutate: func(s *Spec) {
		setSizeType(s, cBitfields, 32)
		setExt(s, cBitfields, 7, uint32(cInt128))
		setExt(s, cBitfields, 8, 128<<24|9)
	}},
	{name: "ENUM member of kind_flag struct taken as 32 bits", rule: RuleMemberBounds, mutate: func(s *Spec) {
		e := s.Add("e1", KindEnum, 1, false, 1, s.AddString("Z"), 0)
		s.Add("ks", KindStruct, 1, true, 1, s.AddString("z"), uint32(e), 0)
	}},
	{name: "ENUM bitfield wider than 32 bits", rule: RuleBitfield, mutate: func(s *Spec) {
		setExt(s, cBitfields, 7, uint32(cEnum64))
		setExt(s, cBitfields, 8, 40<<24|8)
		setSizeType(s, cBitfields, 8)
	}},

	// Arrays.
	{name: "array of irregular INT", rule: RuleArray, mutate: func(s *Spec) { setExt(s, cArray, 0, uint32(cInt3)) }},
	{name: "array index irregular INT", rule: RuleArray, mutate: func(s *Spec) { setExt(s, cArray, 1, uint32(cInt3)) }},
	{name: "array index STRUCT", rule: RuleArray, mutate: func(s *Spec) { setExt(s, cArray, 1, uint32(cUnion)) }},
	{name: "array size overflows 32 bits", rule: RuleArray, mutate: func(s *Spec) { setExt(s, cArray, 2, 1<<30) }},

	// Parameters.
	{name: "vararg not last", rule: RuleParam, mutate: func(s *Spec) { setExt(s, cVarargs, 1, 0) }},
	{name: "vararg named", rule: RuleParam, mutate: func(s *Spec) { setExt(s, cVarargs, 2, s.AddString("rest")) }},

	// Linkage.
	{name: "FUNC extern", rule: RuleLinkage, mutate: func(s *Spec) { setVlenOnly(s, cFunc, LinkageExtern) }},
	{name: "FUNC linkage 3", rule: RuleLinkage, mutate: func(s *Spec) { setVlenOnly(s, cFunc, 3) }},
	{name: "VAR extern", rule: RuleLinkage, mutate: func(s *Spec) { setExt(s, cVar, 0, LinkageExtern) }},

	// DATASEC entries.
	{name: "DATASEC entries overlap", rule: RuleDatasec, mutate: func(s *Spec) {
		v2 := s.Add("w", KindVar, 0, false, uint32(cInt), LinkageStatic)
		s.Add(".bss", KindDatasec, 2, false, 8, uint32(cVar), 0, 4, uint32(v2), 2, 4)
	}},
	{name: "DATASEC entries unsorted", rule: RuleDatasec, mutate: func(s *Spec) {
		v2 := s.Add("w", KindVar, 0, false, uint32(cInt), LinkageStatic)
		s.Add(".bss", KindDatasec, 2, false, 8, uint32(cVar), 4, 4, uint32(v2), 0, 4)
	}},
	{name: "DATASEC entry past size", rule: RuleDatasec, mutate: func(s *Spec) { setExt(s, cDatasec, 1, 4) }},
	{name: "DATASEC entry runs past size", rule: RuleDatasec, mutate: func(s *Spec) { setExt(s, cDatasec, 1, 2) }},
	{name: "DATASEC entry of size 0", rule: RuleDatasec, mutate: func(s *Spec) { setExt(s, cDatasec, 2, 0) }},
	{name: "DATASEC entry smaller than its VAR", rule: RuleDatasec, mutate: func(s *Spec) { setExt(s, cDatasec, 2, 2) }},

	// DECL_TAG.
	{name: "DECL_TAG component_idx -2", rule: RuleDeclTag, mutate: func(s *Spec) { setExt(s, cDeclTag, 0, 0xfffffffe) }},
	{name: "DECL_TAG member index out of range", rule: RuleDeclTag, mutate: func(s *Spec) { setExt(s, cDeclTag, 0, 3) }},
	{name: "DECL_TAG parameter index out of range", rule: RuleDeclTag, mutate: func(s *Spec) { setSizeType(s, cDeclTag, uint32(cFunc)); setExt(s, cDeclTag, 0, 2) }},
	{name: "DECL_TAG component of a VAR", rule: RuleDeclTag, mutate: func(s *Spec) { setSizeType(s, cDeclTag, uint32(cVar)) }},
	{name: "DECL_TAG of INT", rule: RuleDeclTag, mutate: func(s *Spec) { setSizeType(s, cDeclTag, uint32(cInt)); setExt(s, cDeclTag, 0, 0xffffffff) }},

	// Resolve depth.
	{name: "33 forward TYPEDEFs", rule: RuleDepth, mutate: func(s *Spec) {
		first := s.NextID()
		for i := 0; i < 33; i++ {
			s.Add(fmt.Sprintf("td%d", i), KindTypedef, 0, false, uint32(first)+uint32(i)+1)
		}
		s.Add("", KindConst, 0, false, uint32(cInt))
	}},
	{name: "33 forward PTRs", rule: RuleDepth, mutate: func(s *Spec) {
		first := s.NextID()
		for i := 0; i < 33; i++ {
			s.Add("", KindPtr, 0, false, uint32(first)+uint32(i)+1)
		}
		s.Add("", KindPtr, 0, false, uint32(cInt))
	}},
	{name: "33 forward nested STRUCTs", rule: RuleDepth, mutate: func(s *Spec) {
		first := s.NextID()
		for i := 0; i < 33; i++ {
			s.Add(fmt.Sprintf("n%d", i), KindStruct, 1, false, 4, s.AddString("m"), uint32(first)+uint32(i)+1, 0)
		}
		s.Add("", KindArray, 0, false, 0, uint32(cInt), uint32(cInt), 1)
	}},

	// TYPE_TAG order.
	{name: "CONST before TYPE_TAG", rule: RuleTypeTag, mutate: func(s *Spec) { setSizeType(s, cConst, uint32(cTypeTag)) }},

	// Raw layout (CheckRaw).
	{name: "gap between sections", rule: RuleSections, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		hl, tl, sl := bo.Uint32(b[4:]), bo.Uint32(b[12:]), bo.Uint32(b[20:])
		out := append([]byte(nil), b[:hl+tl]...)
		out = append(out, 0, 0, 0, 0)
		out = append(out, b[hl+tl:hl+tl+sl]...)
		bo.PutUint32(out[16:], tl+4)
		return out
	}},
	{name: "data after the string section", rule: RuleSections, raw: func(b []byte) []byte { return append(append([]byte(nil), b...), 0, 0, 0, 0) }},
	{name: "strings before types", rule: RuleSections, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		hl, tl, sl := bo.Uint32(b[4:]), bo.Uint32(b[12:]), bo.Uint32(b[20:])
		out := append([]byte(nil), b[:hl]...)
		pad := (4 - sl%4) % 4
		out = append(out, b[hl+tl:hl+tl+sl]...)
		out = append(out, make([]byte, pad)...)
		out = append(out, b[hl:hl+tl]...)
		bo.PutUint32(out[8:], sl+pad)
		bo.PutUint32(out[16:], 0)
		bo.PutUint32(out[20:], sl+pad)
		return out
	}},
	{name: "no types", rule: RuleSections, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		hl, tl, sl := bo.Uint32(b[4:]), bo.Uint32(b[12:]), bo.Uint32(b[20:])
		out := append(append([]byte(nil), b[:hl]...), b[hl+tl:hl+tl+sl]...)
		bo.PutUint32(out[12:], 0)
		bo.PutUint32(out[16:], 0)
		return out
	}},
	{name: "empty string section", rule: RuleStrings, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		hl, tl := bo.Uint32(b[4:]), bo.Uint32(b[12:])
		out := append([]byte(nil), b[:hl+tl]...)
		bo.PutUint32(out[20:], 0)
		return out
	}},
	{name: "big-endian BTF on a little-endian host", rule: RuleLayout, raw: func(b []byte) []byte {
		s, err := Parse(b, nil)
		if err != nil {
			panic(err)
		}
		return s.Marshal(binary.BigEndian)
	}},
	{name: "header flags", rule: RuleLayout, raw: func(b []byte) []byte { b = append([]byte(nil), b...); b[3] = 1; return b }},
	{name: "header version 2", rule: RuleLayout, raw: func(b []byte) []byte { b = append([]byte(nil), b...); b[2] = 2; return b }},
	{name: "string section without leading NUL", rule: RuleLayout, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		b = append([]byte(nil), b...)
		b[bo.Uint32(b[4:])+bo.Uint32(b[16:])] = 'x'
		return b
	}},
	{name: "type record cut short", rule: RuleLayout, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		b = append([]byte(nil), b...)
		bo.PutUint32(b[12:], bo.Uint32(b[12:])-4)
		bo.PutUint32(b[16:], bo.Uint32(b[16:])-4)
		bo.PutUint32(b[20:], bo.Uint32(b[20:])+4)
		return b
	}},
	{name: "more than 16 MiB", rule: RuleLimit, raw: func(b []byte) []byte {
		bo := binary.LittleEndian
		out := append(append([]byte(nil), b...), make([]byte, 16<<20)...)
		bo.PutUint32(out[20:], bo.Uint32(out[20:])+16<<20)
		return out
	}},

	// Strict-only conventions: the kernel accepts these.
	{name: "name offset inside a string", rule: RuleNameStart, strict: true, mutate: func(s *Spec) { setExt(s, cStruct, 0, s.AddString("xa")+1) }},
	{name: "INT anonymous", rule: RuleConvention, strict: true, mutate: func(s *Spec) { setName(s, cInt3, "") }},
	{name: "INT size 3", rule: RuleConvention, strict: true, mutate: func(s *Spec) { setSizeType(s, cInt3, 3) }},
	{name: "FLOAT anonymous", rule: RuleConvention, strict: true, mutate: func(s *Spec) { setName(s, cFloat, "") }},
	{name: "anonymous INT member", rule: RuleConvention, strict: true, mutate: func(s *Spec) { setExt(s, cUnion, 3, 0) }},
	{name: "FUNC name with dot", rule: RuleConvention, strict: true, mutate: func(s *Spec) { setName(s, cFunc, "fn.cold") }},
	{name: "ENUM64 member of kind_flag struct past its end", rule: RuleConvention, strict: true, mutate: func(s *Spec) {
		s.Add("ks", KindStruct, 1, true, 4, s.AddString("z"), uint32(cEnum64), 0)
	}},
}

// kernelVerdict loads raw BTF into the running kernel. It returns the
// verifier log's last line when the kernel rejects it, "" when it accepts
// it, and skips the kernel half (testenv.SkipPartOrFail) when bpf() is not
// permitted.
func kernelVerdict(t *testing.T, raw []byte) (rejected bool, msg string, ok bool) {
	t.Helper()
	err := kernload.Load(raw)
	if errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipPartOrFail(t, "kernel half: %v", err)
		return false, "", false
	}
	var rej *kernload.RejectedError
	if errors.As(err, &rej) {
		lines := strings.Split(strings.TrimSpace(rej.Log), "\n")
		return true, strings.TrimSpace(lines[len(lines)-1]) + " (" + rej.Errno.Error() + ")", true
	}
	if err != nil {
		t.Fatalf("kernel load: %v", err)
	}
	return false, "", true
}

func TestCheckSpecValid(t *testing.T) {
	s := checkSpec()
	if err := s.Check(Strict()); err != nil {
		t.Fatalf("the every-kind BTF fails Check: %v", err)
	}
	raw := s.Marshal(nil)
	if _, err := CheckRaw(raw, nil, Strict()); err != nil {
		t.Fatalf("the every-kind BTF fails CheckRaw: %v", err)
	}
	if rejected, msg, ok := kernelVerdict(t, raw); ok && rejected {
		t.Fatalf("the kernel rejects the every-kind BTF: %s", msg)
	}
}

// TestCheckRejects corrupts the every-kind BTF one rule at a time: Check
// must name the rule, and the kernel's verifier must reject the same bytes
// (for strict-only conventions: Check without Strict and the kernel must
// both accept them).
func TestCheckRejects(t *testing.T) {
	rulesSeen := map[Rule]bool{}
	ran := 0
	for _, tc := range checkCases {
		t.Run(tc.name, func(t *testing.T) {
			ran++
			s := checkSpec()
			var raw []byte
			var err, lenient error
			if tc.raw != nil {
				raw = tc.raw(s.Marshal(nil))
				_, err = CheckRaw(raw, nil, Strict(), HostByteOrder(), hostKernel(t))
				lenient = err
			} else {
				tc.mutate(s)
				err = s.Check(Strict(), hostKernel(t))
				lenient = s.Check(hostKernel(t))
				raw = s.Marshal(nil)
				// The bytes must tell the same story as the Spec
				// (but Parse, like libbpf, cannot step over a kind it
				// does not know, which a set kind bit makes).
				if _, rawErr := CheckRaw(raw, nil, Strict(), hostKernel(t)); !sameRules(rawErr, err) && tc.rule != RuleKind && tc.rule != RuleInfo {
					t.Errorf("CheckRaw and Check disagree:\n  CheckRaw: %v\n  Check:    %v", rawErr, err)
				}
			}
			var ce *CheckError
			if !errors.As(err, &ce) || !ce.Has(tc.rule) {
				t.Fatalf("want a problem with rule %s, got %v", tc.rule, err)
			}
			for _, p := range ce.Problems {
				if p.Rule == tc.rule {
					t.Logf("we say:     %s", p)
					break
				}
			}
			rulesSeen[tc.rule] = true
			if tc.strict && lenient != nil {
				t.Errorf("strict-only convention reported without Strict: %v", lenient)
			}
			rejected, msg, ok := kernelVerdict(t, raw)
			if !ok {
				return
			}
			switch {
			case tc.strict && rejected:
				t.Errorf("strict-only case, but the kernel rejects it: %s", msg)
			case !tc.strict && !rejected:
				t.Errorf("the kernel accepts what we reject (false positive): %v", err)
			case rejected:
				t.Logf("kernel says: %s", msg)
			}
		})
	}
	// Every rule has at least one case (when all cases ran).
	for _, r := range allRules {
		if ran == len(checkCases) && !rulesSeen[r] && !t.Failed() {
			t.Errorf("no corruption case for rule %s", r)
		}
	}
}

var allRules = []Rule{
	RuleLayout, RuleSections, RuleStrings, RuleLimit, RuleInfo, RuleKind,
	RuleNameOffset, RuleNameRequired, RuleNameForbidden, RuleNameInvalid,
	RuleKindFlag, RuleVlen, RuleSize, RuleInt, RuleTypeID, RuleRefKind,
	RuleLoop, RuleMemberOffset, RuleMemberBounds, RuleBitfield, RuleArray,
	RuleParam, RuleLinkage, RuleDatasec, RuleDeclTag, RuleTypeTag, RuleDepth,
	RuleNameStart, RuleConvention,
}

func sameRules(a, b error) bool {
	rules := func(err error) map[Rule]bool {
		m := map[Rule]bool{}
		var ce *CheckError
		if errors.As(err, &ce) {
			for _, p := range ce.Problems {
				m[p.Rule] = true
			}
		}
		return m
	}
	ra, rb := rules(a), rules(b)
	if len(ra) != len(rb) {
		return false
	}
	for r := range ra {
		if !rb[r] {
			return false
		}
	}
	return true
}

// TestCheckProblemFormat pins the message format: type ID, kind, name,
// what is wrong, and the rule.
func TestCheckProblemFormat(t *testing.T) {
	s := checkSpec()
	setSizeType(s, cStruct, 8)
	err := s.Check()
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
	want := "type [5] STRUCT 's': member 2 'c' at bit 128 past struct size 8 bytes (member-bounds)"
	found := false
	for _, p := range ce.Problems {
		found = found || p.String() == want
	}
	if !found {
		t.Fatalf("no problem reads %q; got %v", want, ce.Problems)
	}
	if p := ce.Problems[0]; p.ID != cStruct || p.Kind != KindStruct || p.Name != "s" {
		t.Fatalf("problem fields: %+v", p)
	}
}

// TestCheckMaxProblems: the cap keeps the first problems and says so.
func TestCheckMaxProblems(t *testing.T) {
	s := checkSpec()
	for i := 0; i < 10; i++ {
		s.Add("", KindPtr, 0, false, 9999)
	}
	var ce *CheckError
	if err := s.Check(MaxProblems(3)); !errors.As(err, &ce) || len(ce.Problems) != 3 || !ce.Truncated {
		t.Fatalf("MaxProblems(3): got %v", err)
	}
	if err := s.Check(MaxProblems(0)); !errors.As(err, &ce) || len(ce.Problems) != 10 || ce.Truncated {
		t.Fatalf("MaxProblems(0): got %v", err)
	}
}

// TestCheckSplit checks a split Spec against its base: the base's types
// are trusted unless CheckBase is given, and references into the base
// resolve.
func TestCheckSplit(t *testing.T) {
	base := checkSpec()
	setName(base, cFwd, "") // a problem in the base only
	split := NewSplitSpec(base)
	p := split.Add("", KindPtr, 0, false, uint32(cStruct))
	split.Add("wrap", KindStruct, 2, false, 16, split.AddString("p"), uint32(p), 0, split.AddString("l"), uint32(cList), 64)
	if err := split.Check(); err != nil {
		t.Fatalf("split Spec: %v", err)
	}
	var ce *CheckError
	if err := split.Check(CheckBase()); !errors.As(err, &ce) || !ce.Has(RuleNameRequired) || ce.Problems[0].ID != cFwd {
		t.Fatalf("CheckBase: got %v, want the base's anonymous FWD", err)
	}
	bad := NewSplitSpec(checkSpec())
	bad.Add("", KindPtr, 0, false, uint32(bad.NextID()+5))
	if err := bad.Check(); !errors.As(err, &ce) || !ce.Has(RuleTypeID) || ce.Problems[0].ID != bad.FirstID() {
		t.Fatalf("split Spec with a dangling ID: got %v", err)
	}
	// Round trip through bytes: split BTF parsed against the base.
	raw := split.Marshal(nil)
	if _, err := CheckRaw(raw, split.Base()); err != nil {
		t.Fatalf("CheckRaw on split BTF: %v", err)
	}
}

// agreesWithKernel checks one input with CheckRaw and, where bpf() is
// allowed, with the kernel: both must accept it, or both reject it.
func agreesWithKernel(t *testing.T, raw []byte, base *Spec) {
	t.Helper()
	_, err := CheckRaw(raw, base, hostKernel(t))
	if base != nil {
		// The kernel cannot load split BTF from user space: ours alone.
		if err != nil {
			t.Fatalf("split BTF: %v", err)
		}
		return
	}
	rejected, msg, ok := kernelVerdict(t, raw)
	switch {
	case !ok:
		if err != nil {
			t.Fatalf("%v", err)
		}
	case rejected && err == nil:
		t.Fatalf("the kernel rejects what we accept: %s", msg)
	case !rejected && err != nil:
		t.Fatalf("false positive, the kernel accepts it: %v", err)
	case rejected:
		t.Logf("rejected by both: we say %v; kernel: %s", err, msg)
	}
}

// TestCheckReference: on every reference BTF, the running kernel's BTF
// and its modules, Check agrees with the kernel's verifier.
func TestCheckReference(t *testing.T) {
	files := referenceBTFFiles(t)
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		files = append(files, "/sys/kernel/btf/vmlinux")
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			agreesWithKernel(t, raw, nil)
		})
	}
	mods, _ := filepath.Glob(filepath.Join(SysfsDir, "*"))
	n := 0
	for _, m := range mods {
		if filepath.Base(m) == "vmlinux" || n == 5 {
			continue
		}
		n++
		t.Run("sysfs/"+filepath.Base(m), func(t *testing.T) {
			base, err := LoadKernel()
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			agreesWithKernel(t, raw, base)
		})
	}
	if n == 0 {
		// Not SkipPartOrFail: CI's kernel, like this machine's, may be
		// one without loadable modules.
		t.Logf("SKIP: no module BTF under %s", SysfsDir)
	}
}

// TestCheckCompiled: the .BTF gcc -gbtf writes for the C corpus passes
// Check, and the kernel agrees.
func TestCheckCompiled(t *testing.T) {
	testc.Require(t, "gcc")
	for _, src := range testc.CorpusFiles(t) {
		for _, opt := range []string{"-O0", "-O2"} {
			t.Run(filepath.Base(src)+opt, func(t *testing.T) {
				obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", opt}})
				raw, _, err := ReadBTFBytes(obj)
				if err != nil {
					t.Fatal(err)
				}
				agreesWithKernel(t, raw, nil)
			})
		}
	}
}

// acceptCases are changes to the every-kind BTF that look suspicious but
// that the kernel accepts: Check (without Strict) must accept them too.
var acceptCases = []struct {
	name   string
	mutate func(s *Spec)
}{
	{"STRUCT name with dots", func(s *Spec) { setName(s, cStruct, ".a.b") }},
	{"member name with dot", func(s *Spec) { setExt(s, cStruct, 3, s.AddString("a.b")) }},
	{"FUNC name with dot", func(s *Spec) { setName(s, cFunc, "fn.cold.1") }},
	{"enumerator name with dot", func(s *Spec) { setExt(s, cEnum, 0, s.AddString("A.B")) }},
	{"parameter name with dot", func(s *Spec) { setExt(s, cProto, 0, s.AddString("a.b")) }},
	{"VAR name with dots", func(s *Spec) { setName(s, cVar, "v.1.2") }},
	{"DATASEC name with space and leading digit", func(s *Spec) { setName(s, cDatasec, "1 data") }},
	{"FWD name of 512 bytes", func(s *Spec) { setName(s, cFwd, strings.Repeat("f", 512)) }},
	{"FWD name with Latin-1 letters", func(s *Spec) { setName(s, cFwd, "\xe9t\xe9") }},
	{"TYPE_TAG value with space", func(s *Spec) { setName(s, cTypeTag, "a b") }},
	{"VOLATILE of FUNC", func(s *Spec) { setSizeType(s, cVolatile, uint32(cFunc)) }},
	{"PTR to TYPEDEF of FUNC", func(s *Spec) {
		setSizeType(s, cTypedef, uint32(cFunc))
		s.Add("", KindPtr, 0, false, uint32(cTypedef))
	}},
	{"PTR to an earlier FUNC", func(s *Spec) { s.Add("", KindPtr, 0, false, uint32(cFunc)) }},
	{"PTR to FWD", func(s *Spec) { setSizeType(s, cPtr, uint32(cFwd)) }},
	{"TYPE_TAG of CONST", func(s *Spec) { setSizeType(s, cTypeTag, uint32(cConst)) }},
	{"TYPE_TAG and DECL_TAG with kind_flag", func(s *Spec) { setKindFlag(s, cTypeTag); setKindFlag(s, cDeclTag) }},
	{"DECL_TAG on a parameter", func(s *Spec) { s.Add("t2", KindDeclTag, 0, false, uint32(cFunc), 1) }},
	{"INT of size 3 and of size 1000", func(s *Spec) { setSizeType(s, cInt3, 3); s.Add("big", KindInt, 0, false, 1000, 8) }},
	{"ENUM64 member of kind_flag struct", func(s *Spec) { s.Add("ks", KindStruct, 1, true, 8, s.AddString("z"), uint32(cEnum64), 0) }},
	{"array index TYPEDEF of INT, zero elements", func(s *Spec) { setExt(s, cArray, 1, uint32(cTypedef)); setExt(s, cArray, 2, 0) }},
	{"empty STRUCT, ENUM and DATASEC", func(s *Spec) {
		s.Add("empty", KindStruct, 0, false, 0)
		s.Add("e0", KindEnum, 0, false, 4)
		s.Add(".bss", KindDatasec, 0, false, 4)
	}},
	{"FUNC of a variadic prototype", func(s *Spec) { setSizeType(s, cFunc, uint32(cVarargs)) }},
	{"VAR static of TYPEDEF", func(s *Spec) { setExt(s, cVar, 0, LinkageStatic); setSizeType(s, cVar, uint32(cTypedef)) }},
	{"40 CONSTs referring backwards", func(s *Spec) {
		prev := cInt
		for i := 0; i < 40; i++ {
			prev = s.Add("", KindConst, 0, false, uint32(prev))
		}
	}},
	{"32 forward TYPEDEFs", func(s *Spec) {
		first := s.NextID()
		for i := 0; i < 31; i++ {
			s.Add(fmt.Sprintf("td%d", i), KindTypedef, 0, false, uint32(first)+uint32(i)+1)
		}
		s.Add("", KindConst, 0, false, uint32(cInt))
	}},
}

// TestCheckAccepts: no false positives on BTF the kernel accepts.
func TestCheckAccepts(t *testing.T) {
	for _, tc := range acceptCases {
		t.Run(tc.name, func(t *testing.T) {
			s := checkSpec()
			tc.mutate(s)
			if err := s.Check(); err != nil {
				t.Errorf("Check: %v", err)
			}
			raw := s.Marshal(nil)
			if _, err := CheckRaw(raw, nil); err != nil {
				t.Errorf("CheckRaw: %v", err)
			}
			if rejected, msg, ok := kernelVerdict(t, raw); ok && rejected {
				t.Fatalf("the kernel rejects this case, fix the test: %s", msg)
			}
		})
	}
}

// TestCheckDebianModules checks the split BTF pahole 1.32 wrote for every
// module of the Debian 6.1 kernel against pahole 1.32's BTF of that
// kernel's vmlinux (the base the modules were encoded against).
func TestCheckDebianModules(t *testing.T) {
	tarball := testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz")
	testc.Require(t, "tar", "xz")
	out := t.TempDir()
	testc.Run(t, "tar", "-xJf", tarball, "-C", out)
	base, err := LoadFile(testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	mods, _ := filepath.Glob(filepath.Join(out, "btf", "*.btf"))
	if len(mods) < 1000 {
		t.Fatalf("%d module BTFs in %s, want over 1000", len(mods), tarball)
	}
	for _, m := range mods {
		raw, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := CheckRaw(raw, base); err != nil {
			t.Errorf("%s: %v", filepath.Base(m), err)
		}
	}
	// The same modules with a dangling reference are caught: retarget the
	// first PTR of one module past the last type.
	raw, _ := os.ReadFile(mods[0])
	s, err := Parse(raw, base)
	if err != nil {
		t.Fatal(err)
	}
	for id := s.FirstID(); id < s.NextID(); id++ {
		if ty := s.Type(id); ty.Kind() == KindPtr {
			s.SetRaw(id, ty.NameOff(), ty.Info(), uint32(s.NextID()))
			var ce *CheckError
			if err := s.Check(); !errors.As(err, &ce) || !ce.Has(RuleTypeID) {
				t.Fatalf("%s with [%d] PTR retargeted past the end: got %v", filepath.Base(mods[0]), id, err)
			}
			return
		}
	}
	t.Fatalf("%s has no PTR", filepath.Base(mods[0]))
}

// TestCheckKernelDifferential corrupts the every-kind BTF at random (a
// fixed seed, so runs repeat) and asks both Check and the kernel: they must
// agree on every input. Half the corruptions retarget a type reference to
// another type (reaching the resolve rules), half overwrite a word of the
// type section with a boundary value or a flipped bit. BTFKIT_DIFF_N sets
// the number of inputs (default 400; 50 with -short).
func TestCheckKernelDifferential(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	if v, err := strconv.Atoi(os.Getenv("BTFKIT_DIFF_N")); err == nil {
		n = v
	}
	if err := kernload.Load(checkSpec().Marshal(nil)); errors.Is(err, kernload.ErrNotPermitted) {
		testenv.SkipOrFail(t, "%v", err)
	}
	rng := rand.New(rand.NewSource(1))
	boundary := []uint32{0, 1, 2, 3, 4, 7, 8, 9, 16, 24, 31, 32, 33, 64, 127, 128, 129, 0xff, 0xffff,
		0xffffffff, 0x80000000, 1 << 24, 3 << 24, 0x80000020}
	disagree := 0
	for i := 0; i < n; i++ {
		s := checkSpec()
		var what string
		if i%2 == 0 {
			id := TypeID(1 + rng.Intn(s.NumTypes()))
			ty := s.Type(id)
			sizeType, ext := ty.SizeType(), append([]uint32(nil), ty.Extra()...)
			var refs []*uint32
			ForEachTypeRef(ty.Info(), &sizeType, ext, func(p *uint32) { refs = append(refs, p) })
			if len(refs) == 0 {
				continue
			}
			r := refs[rng.Intn(len(refs))]
			*r = uint32(rng.Intn(int(s.NextID()) + 1))
			s.SetRaw(id, ty.NameOff(), ty.Info(), sizeType, ext...)
			what = fmt.Sprintf("[%d] %s reference -> %d", id, ty.Kind(), *r)
		}
		raw := s.Marshal(nil)
		if i%2 == 1 {
			bo := binary.LittleEndian
			hl, tl := bo.Uint32(raw[4:]), bo.Uint32(raw[12:])
			w := hl + 4*uint32(rng.Intn(int(tl/4)))
			v := boundary[rng.Intn(len(boundary))]
			if rng.Intn(2) == 0 {
				v = bo.Uint32(raw[w:]) ^ 1<<rng.Intn(32)
			}
			bo.PutUint32(raw[w:], v)
			what = fmt.Sprintf("type section word at 0x%x = 0x%x", w-hl, v)
		}
		_, ours := CheckRaw(raw, nil, hostKernel(t))
		rejected, msg, _ := kernelVerdict(t, raw)
		if rejected != (ours != nil) {
			disagree++
			t.Errorf("input %d (%s): kernel rejects: %v (%s); Check: %v", i, what, rejected, msg, ours)
		}
	}
	t.Logf("%d inputs, %d disagreements", n, disagree)
}

// TestCheckMalformedSpec: a Spec built with AddRaw whose trailing words do
// not match its kind and vlen is reported, not a panic, also where other
// types refer to it.
func TestCheckMalformedSpec(t *testing.T) {
	s := NewSpec()
	bad := s.AddRaw(s.AddString("int"), Info(KindInt, 0, false), 4) // no encoding word
	s.Add("s", KindStruct, 1, false, 4, s.AddString("a"), uint32(bad), 0)
	s.Add("", KindArray, 0, false, 0, uint32(bad), uint32(bad), 2)
	s.AddRaw(0, Info(KindStruct, 2, false), 8, 1, 2, 3) // 3 words for 2 members
	var ce *CheckError
	if err := s.Check(); !errors.As(err, &ce) || !ce.Has(RuleLayout) || ce.Problems[0].ID != bad {
		t.Fatalf("got %v, want layout problems starting at [%d]", err, bad)
	}
}
