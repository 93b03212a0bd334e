package btf

// Type is a read-only view of one type of a Spec: its header and trailing
// words, without copying. It is small and meant to be passed by value.
type Type struct {
	spec *Spec
	ID   TypeID
	hdr  header
	ext  []uint32
}

// Spec returns the Spec the view was taken from.
func (t Type) Spec() *Spec { return t.spec }

// Kind is the type's kind; KindUnknown for void (ID 0).
func (t Type) Kind() Kind { return KindOf(t.hdr.Info) }

// KindFlag is bit 31 of the info word.
func (t Type) KindFlag() bool { return KindFlagOf(t.hdr.Info) }

// Vlen is the number of members, enumerators, parameters or section
// entries (bits 0-15 of the info word). For FUNC it holds the linkage.
func (t Type) Vlen() int { return VlenOf(t.hdr.Info) }

// Info is the raw info word.
func (t Type) Info() uint32 { return t.hdr.Info }

// NameOff is the offset of the type's name in the string table.
func (t Type) NameOff() uint32 { return t.hdr.NameOff }

// Name is the type's name, "" for anonymous types.
func (t Type) Name() string { return t.spec.String(t.hdr.NameOff) }

// SizeType is the raw size-or-type word.
func (t Type) SizeType() uint32 { return t.hdr.SizeType }

// Size is the byte size of INT, STRUCT, UNION, ENUM, ENUM64, DATASEC and FLOAT.
func (t Type) Size() uint32 { return t.hdr.SizeType }

// Ref is the referenced type of PTR, TYPEDEF, VOLATILE, CONST, RESTRICT,
// FUNC, FUNC_PROTO (return type), VAR, DECL_TAG and TYPE_TAG.
func (t Type) Ref() TypeID { return TypeID(t.hdr.SizeType) }

// Extra returns the trailing words after the header (not a copy).
func (t Type) Extra() []uint32 { return t.ext }

// IntEncoding decodes an INT's extra word: encoding bits (IntSigned,
// IntChar, IntBool), bit offset and number of bits.
func (t Type) IntEncoding() (encoding, offset, bits uint8) {
	w := t.ext[0]
	return uint8(w >> 24 & 0x0f), uint8(w >> 16), uint8(w)
}

// Array describes an ARRAY.
type Array struct {
	Elem   TypeID
	Index  TypeID
	Nelems uint32
}

// Array decodes an ARRAY's extra words.
func (t Type) Array() Array {
	return Array{TypeID(t.ext[0]), TypeID(t.ext[1]), t.ext[2]}
}

// Member is a STRUCT or UNION member.
type Member struct {
	NameOff uint32
	Type    TypeID
	// Offset is the raw offset word: with the kind_flag clear it is the
	// bit offset; with it set, bits 0-23 are the bit offset and bits 24-31
	// the bitfield size.
	Offset uint32
}

// Member returns member i of a STRUCT or UNION.
func (t Type) Member(i int) Member {
	e := t.ext[3*i : 3*i+3]
	return Member{e[0], TypeID(e[1]), e[2]}
}

// MemberBits returns member i's bit offset and bitfield size (0 when the
// member is not a bitfield or the type's kind_flag is clear).
func (t Type) MemberBits(i int) (bitOffset, bitfieldSize uint32) {
	return MemberOffset(t.ext[3*i+2], t.KindFlag())
}

// EnumValue is an ENUM or ENUM64 enumerator. Val holds the raw 64 bits;
// interpret it as signed when the type's kind_flag is set.
type EnumValue struct {
	NameOff uint32
	Val     uint64
}

// Enum returns enumerator i of an ENUM or ENUM64. For ENUM the 32-bit value
// is sign-extended when the kind_flag (signed) is set, zero-extended
// otherwise.
func (t Type) Enum(i int) EnumValue {
	if t.Kind() == KindEnum64 {
		e := t.ext[3*i : 3*i+3]
		return EnumValue{e[0], uint64(e[2])<<32 | uint64(e[1])}
	}
	e := t.ext[2*i : 2*i+2]
	if t.KindFlag() {
		return EnumValue{e[0], uint64(int64(int32(e[1])))}
	}
	return EnumValue{e[0], uint64(e[1])}
}

// Param is a FUNC_PROTO parameter; a final parameter with name 0 and type
// 0 marks a variadic function.
type Param struct {
	NameOff uint32
	Type    TypeID
}

// Param returns parameter i of a FUNC_PROTO.
func (t Type) Param(i int) Param {
	return Param{t.ext[2*i], TypeID(t.ext[2*i+1])}
}

// Linkage is a FUNC's linkage (its vlen) or a VAR's linkage word.
func (t Type) Linkage() uint32 {
	if t.Kind() == KindVar {
		return t.ext[0]
	}
	return uint32(t.Vlen())
}

// VarSecinfo is one DATASEC entry.
type VarSecinfo struct {
	Type   TypeID
	Offset uint32
	Size   uint32
}

// SecVar returns entry i of a DATASEC.
func (t Type) SecVar(i int) VarSecinfo {
	e := t.ext[3*i : 3*i+3]
	return VarSecinfo{TypeID(e[0]), e[1], e[2]}
}

// ComponentIdx is a DECL_TAG's component index: -1 for the declaration
// itself, otherwise the member or parameter index.
func (t Type) ComponentIdx() int32 { return int32(t.ext[0]) }

// IsStruct reports a struct, or a forward declaration of one (a FWD whose
// kind_flag is clear), as C and pahole see both.
func (t Type) IsStruct() bool {
	k := t.Kind()
	return k == KindStruct || (k == KindFwd && !t.KindFlag())
}

// IsUnion reports a union, or a forward declaration of one (a FWD whose
// kind_flag is set).
func (t Type) IsUnion() bool {
	k := t.Kind()
	return k == KindUnion || (k == KindFwd && t.KindFlag())
}

// IsEnum reports an ENUM or an ENUM64.
func (t Type) IsEnum() bool {
	k := t.Kind()
	return k == KindEnum || k == KindEnum64
}
