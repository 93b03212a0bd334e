package btf

import "fmt"

// Kind is a BTF type kind, the value stored in bits 24-28 of a type's info word.
type Kind uint8

// The kinds the kernel knows, with their numeric values from the BTF format.
const (
	KindUnknown   Kind = 0
	KindInt       Kind = 1
	KindPtr       Kind = 2
	KindArray     Kind = 3
	KindStruct    Kind = 4
	KindUnion     Kind = 5
	KindEnum      Kind = 6
	KindFwd       Kind = 7
	KindTypedef   Kind = 8
	KindVolatile  Kind = 9
	KindConst     Kind = 10
	KindRestrict  Kind = 11
	KindFunc      Kind = 12
	KindFuncProto Kind = 13
	KindVar       Kind = 14
	KindDatasec   Kind = 15
	KindFloat     Kind = 16
	KindDeclTag   Kind = 17
	KindTypeTag   Kind = 18
	KindEnum64    Kind = 19

	// MaxKind is the largest kind this package understands.
	MaxKind = KindEnum64
)

var kindNames = [...]string{
	KindUnknown:   "UNKNOWN",
	KindInt:       "INT",
	KindPtr:       "PTR",
	KindArray:     "ARRAY",
	KindStruct:    "STRUCT",
	KindUnion:     "UNION",
	KindEnum:      "ENUM",
	KindFwd:       "FWD",
	KindTypedef:   "TYPEDEF",
	KindVolatile:  "VOLATILE",
	KindConst:     "CONST",
	KindRestrict:  "RESTRICT",
	KindFunc:      "FUNC",
	KindFuncProto: "FUNC_PROTO",
	KindVar:       "VAR",
	KindDatasec:   "DATASEC",
	KindFloat:     "FLOAT",
	KindDeclTag:   "DECL_TAG",
	KindTypeTag:   "TYPE_TAG",
	KindEnum64:    "ENUM64",
}

// String returns the kind's name as bpftool prints it ("STRUCT", "FUNC_PROTO").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("KIND(%d)", uint8(k))
}

// extraWords is the number of 32-bit words that follow the common 12-byte
// type header for a type of this kind with vlen entries, or -1 for a kind
// this package does not know.
func extraWords(k Kind, vlen int) int {
	switch k {
	case KindInt, KindVar, KindDeclTag:
		return 1
	case KindArray:
		return 3
	case KindStruct, KindUnion, KindDatasec, KindEnum64:
		return 3 * vlen
	case KindEnum, KindFuncProto:
		return 2 * vlen
	case KindPtr, KindFwd, KindTypedef, KindVolatile, KindConst, KindRestrict,
		KindFunc, KindFloat, KindTypeTag:
		return 0
	}
	return -1
}

// Int encoding bits (the top byte of an INT's extra word).
const (
	IntSigned = 1 << 0
	IntChar   = 1 << 1
	IntBool   = 1 << 2
)

// Linkage of a FUNC (stored in vlen) or VAR.
const (
	LinkageStatic = 0
	LinkageGlobal = 1
	LinkageExtern = 2
)

// Info builds a type's info word from its kind, vlen and kind_flag.
func Info(k Kind, vlen int, kindFlag bool) uint32 {
	i := uint32(k)<<24 | uint32(vlen)&0xffff
	if kindFlag {
		i |= 1 << 31
	}
	return i
}
