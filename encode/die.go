package encode

// DWARF constants the converter needs. They are spelled out here, rather
// than taken from the dwarf package, so that the conversion logic depends
// only on the die record below and can be fed by any reader.
const (
	tagArrayType          = 0x01
	tagClassType          = 0x02
	tagEnumerationType    = 0x04
	tagFormalParameter    = 0x05
	tagLexicalBlock       = 0x0b
	tagMember             = 0x0d
	tagPointerType        = 0x0f
	tagReferenceType      = 0x10
	tagCompileUnit        = 0x11
	tagStructureType      = 0x13
	tagSubroutineType     = 0x15
	tagTypedef            = 0x16
	tagUnionType          = 0x17
	tagUnspecifiedParams  = 0x18
	tagInlinedSubroutine  = 0x1d
	tagPtrToMemberType    = 0x1f
	tagSubrangeType       = 0x21
	tagBaseType           = 0x24
	tagConstType          = 0x26
	tagEnumerator         = 0x28
	tagSubprogram         = 0x2e
	tagVariable           = 0x34
	tagVolatileType       = 0x35
	tagRestrictType       = 0x37
	tagPartialUnit        = 0x3c
	tagUnspecifiedType    = 0x3b
	tagRvalueRefType      = 0x42
	tagAtomicType         = 0x47
	tagLLVMAnnotation     = 0x6000
	tagGNUAnnotation      = 0x6001
	ateBoolean            = 0x02
	ateComplexFloat       = 0x03
	ateFloat              = 0x04
	ateSigned             = 0x05
	ateSignedChar         = 0x06
	ateUnsigned           = 0x07
	ateUnsignedChar       = 0x08
	ateImaginaryFloat     = 0x09
	annotationTypeTagName = "btf_type_tag"
	annotationDeclTagName = "btf_decl_tag"
)

// Presence bits of die.has.
const (
	hasName = 1 << iota
	hasType
	hasByteSize
	hasBitSize
	hasBitOffset     // DW_AT_bit_offset (DWARF 2-4 bitfields, big-endian counting)
	hasDataBitOffset // DW_AT_data_bit_offset
	hasMemberLoc     // DW_AT_data_member_location (a constant, or an expression already evaluated)
	hasUpperBound    // DW_AT_upper_bound with a constant form
	hasUpperBoundVar // DW_AT_upper_bound with a non-constant form (VLA)
	hasCount         // DW_AT_count with a constant form
	hasConstValue    // DW_AT_const_value with a constant form
	hasConstString   // DW_AT_const_value with a string form (annotations)
	hasDeclaration   // DW_AT_declaration true
	hasGNUAnnotation // DW_AT_GNU_annotation
	hasEncoding
	hasExternal  // DW_AT_external true
	hasAlignment // DW_AT_alignment (facts.go)
)

// die is one debugging information entry as the converter sees it: its
// position, tag and the attributes the encoder uses, already decoded. A
// DWARF reader fills one die per entry (null entries are not passed) and
// may reuse it for the next; strings may be views of the reader's sections,
// which the converter keeps only while the unit is being converted.
//
// This record is the whole interface between DWARF reading and BTF
// encoding: anything that can fill it can be encoded.
type die struct {
	off      uint64 // global offset of the entry, strictly increasing within a unit
	depth    int    // nesting depth: the unit's root entry is 0
	tag      uint32
	children bool
	has      uint32 // presence bits (has*)

	name        string
	typ         uint64 // DW_AT_type: global offset of the referenced entry
	byteSize    uint64
	bitSize     uint64
	bitOffset   uint64
	dataBitOff  uint64
	memberLoc   uint64
	upperBound  uint64 // raw bits of the constant (sdata sign-extended)
	count       uint64
	constValue  uint64 // raw bits; constSigned says whether the form sign-extends
	constSigned bool
	constString string
	encoding    uint8
	annotation  uint64 // DW_AT_GNU_annotation: global offset of a DW_TAG_GNU_annotation
	language    uint16 // DW_AT_language of the root entry
	alignment   uint64 // DW_AT_alignment (facts.go)

	fx funcAttrs // subprograms, parameters, variables (funcs.go)
}

// reset clears d for the next entry, keeping nothing.
func (d *die) reset() { *d = die{} }

// evalMemberLoc evaluates a DW_AT_data_member_location expression the way
// pahole does for the forms compilers emit: DW_OP_plus_uconst N and
// DW_OP_constu N give N; anything else gives 0.
func evalMemberLoc(expr []byte) uint64 {
	if len(expr) < 2 {
		return 0
	}
	switch expr[0] {
	case 0x23, 0x10: // DW_OP_plus_uconst, DW_OP_constu
		v, _ := uleb(expr[1:])
		return v
	}
	return 0
}

func uleb(b []byte) (uint64, int) {
	var v uint64
	var shift uint
	for i, c := range b {
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, len(b)
}
