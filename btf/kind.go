package btf

import "fmt"

// Kind is a BTF type kind, the value stored in bits 24-30 of a type's info
// word (bits 24-28 before Linux 7.1, whose verifier rejects the other two).
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

// ExtraWords is the number of 32-bit words that follow the common 12-byte
// type header for a type of kind k with vlen entries, or -1 for a kind
// this package does not know.
func ExtraWords(k Kind, vlen int) int {
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

// The info word, the second word of every type record, packs three fields:
//
//	bits  0-23  vlen: members, enumerators, parameters or entries
//	            (a FUNC's linkage)
//	bits 24-30  kind
//	bit  31     kind_flag (bitfield offsets, a union FWD, a signed enum, ...)
//
// The format (libbpf v1.8, include/uapi/linux/btf.h's BTF_MAX_VLEN and
// BTF_MAX_KIND) uses every bit. Kernels before the one that widened the
// fields (Feature24BitVlen) know a 16-bit vlen and a 5-bit kind and
// reject the bits in between (Check's RuleInfo for such a kernel). Info
// builds the word and KindOf, VlenOf and KindFlagOf take it apart; nothing
// else in btfkit shifts or masks an info word.

// MaxVlen is the largest vlen an info word holds (24 bits).
const MaxVlen = 0xffffff

// MaxVlen16 is the largest vlen kernels before Feature24BitVlen accept.
const MaxVlen16 = 0xffff

// Info builds a type's info word from its kind, vlen and kind_flag.
func Info(k Kind, vlen int, kindFlag bool) uint32 {
	i := uint32(k&0x7f)<<24 | uint32(vlen)&MaxVlen
	if kindFlag {
		i |= 1 << 31
	}
	return i
}

// KindOf returns the kind stored in an info word (bits 24-30).
func KindOf(info uint32) Kind { return Kind(info >> 24 & 0x7f) }

// VlenOf returns the vlen stored in an info word (bits 0-23).
func VlenOf(info uint32) int { return int(info & MaxVlen) }

// KindFlagOf reports whether an info word's kind_flag (bit 31) is set.
func KindFlagOf(info uint32) bool { return info>>31 != 0 }

// The offset word of a STRUCT or UNION member: with the type's kind_flag
// clear it is the member's bit offset; with it set, bits 0-23 are the bit
// offset and bits 24-31 the bitfield size (0 for a member that is not a
// bitfield).

// MemberOffset splits a member's offset word into its bit offset and
// bitfield size, given its STRUCT's or UNION's kind_flag.
func MemberOffset(word uint32, kindFlag bool) (bitOffset, bitfieldSize uint32) {
	if kindFlag {
		return word & 0xffffff, word >> 24
	}
	return word, 0
}

// IsModifier reports the kinds the kernel treats as modifiers: they refer
// to another type and take its size (typedef, volatile, const, restrict,
// type tag).
func IsModifier(k Kind) bool {
	switch k {
	case KindTypedef, KindVolatile, KindConst, KindRestrict, KindTypeTag:
		return true
	}
	return false
}

// IsQualifier reports C's type qualifiers: const, volatile, restrict.
func IsQualifier(k Kind) bool {
	return k == KindConst || k == KindVolatile || k == KindRestrict
}
