// Values of attributes that are codes rather than numbers: base type
// encodings, calling conventions, and the operations of DWARF expressions
// (DW_AT_location, DW_AT_data_member_location): the DWARF 5 standard's
// tables plus the GNU extensions compilers emit into Linux kernels.

package dwarf

// Encoding is a base type's encoding (DW_ATE_*), the value of
// DW_AT_encoding.
type Encoding uint8

// Base type encodings.
const (
	EncAddress        Encoding = 0x01 // DW_ATE_address
	EncBoolean        Encoding = 0x02 // DW_ATE_boolean
	EncComplexFloat   Encoding = 0x03 // DW_ATE_complex_float
	EncFloat          Encoding = 0x04 // DW_ATE_float
	EncSigned         Encoding = 0x05 // DW_ATE_signed
	EncSignedChar     Encoding = 0x06 // DW_ATE_signed_char
	EncUnsigned       Encoding = 0x07 // DW_ATE_unsigned
	EncUnsignedChar   Encoding = 0x08 // DW_ATE_unsigned_char
	EncImaginaryFloat Encoding = 0x09 // DW_ATE_imaginary_float
	EncPackedDecimal  Encoding = 0x0a // DW_ATE_packed_decimal
	EncNumericString  Encoding = 0x0b // DW_ATE_numeric_string
	EncEdited         Encoding = 0x0c // DW_ATE_edited
	EncSignedFixed    Encoding = 0x0d // DW_ATE_signed_fixed
	EncUnsignedFixed  Encoding = 0x0e // DW_ATE_unsigned_fixed
	EncDecimalFloat   Encoding = 0x0f // DW_ATE_decimal_float
	EncUTF            Encoding = 0x10 // DW_ATE_UTF
	EncUCS            Encoding = 0x11 // DW_ATE_UCS
	EncASCII          Encoding = 0x12 // DW_ATE_ASCII
)

// Calling conventions (DW_CC_*), the values of DW_AT_calling_convention.
const (
	CCNormal          = 0x01 // DW_CC_normal
	CCProgram         = 0x02 // DW_CC_program
	CCNocall          = 0x03 // DW_CC_nocall: not callable the usual way (a changed signature)
	CCPassByReference = 0x04 // DW_CC_pass_by_reference
	CCPassByValue     = 0x05 // DW_CC_pass_by_value
)

// Op is an operation of a DWARF expression (DW_OP_*). The comment after
// each says what operands follow it in the expression.
type Op uint8

// Expression operations.
const (
	OpAddr              Op = 0x03 // an address (the unit's address size)
	OpDeref             Op = 0x06
	OpConst1u           Op = 0x08 // 1 byte
	OpConst1s           Op = 0x09 // 1 byte
	OpConst2u           Op = 0x0a // 2 bytes
	OpConst2s           Op = 0x0b // 2 bytes
	OpConst4u           Op = 0x0c // 4 bytes
	OpConst4s           Op = 0x0d // 4 bytes
	OpConst8u           Op = 0x0e // 8 bytes
	OpConst8s           Op = 0x0f // 8 bytes
	OpConstu            Op = 0x10 // ULEB128
	OpConsts            Op = 0x11 // SLEB128
	OpDup               Op = 0x12
	OpDrop              Op = 0x13
	OpOver              Op = 0x14
	OpPick              Op = 0x15 // 1 byte
	OpSwap              Op = 0x16
	OpRot               Op = 0x17
	OpXderef            Op = 0x18
	OpAbs               Op = 0x19
	OpAnd               Op = 0x1a
	OpDiv               Op = 0x1b
	OpMinus             Op = 0x1c
	OpMod               Op = 0x1d
	OpMul               Op = 0x1e
	OpNeg               Op = 0x1f
	OpNot               Op = 0x20
	OpOr                Op = 0x21
	OpPlus              Op = 0x22
	OpPlusUconst        Op = 0x23 // ULEB128
	OpShl               Op = 0x24
	OpShr               Op = 0x25
	OpShra              Op = 0x26
	OpXor               Op = 0x27
	OpBra               Op = 0x28 // 2 bytes
	OpEq                Op = 0x29
	OpGe                Op = 0x2a
	OpGt                Op = 0x2b
	OpLe                Op = 0x2c
	OpLt                Op = 0x2d
	OpNe                Op = 0x2e
	OpSkip              Op = 0x2f // 2 bytes
	OpLit0              Op = 0x30 // OpLit0+n pushes n, for n up to 31
	OpLit31             Op = 0x4f
	OpReg0              Op = 0x50 // OpReg0+n: in register n, for n up to 31
	OpReg31             Op = 0x6f
	OpBreg0             Op = 0x70 // OpBreg0+n: register n plus an SLEB128 offset
	OpBreg31            Op = 0x8f
	OpRegx              Op = 0x90 // ULEB128 register
	OpFbreg             Op = 0x91 // SLEB128
	OpBregx             Op = 0x92 // ULEB128 register, SLEB128 offset
	OpPiece             Op = 0x93 // ULEB128 size
	OpDerefSize         Op = 0x94 // 1 byte
	OpXderefSize        Op = 0x95 // 1 byte
	OpNop               Op = 0x96
	OpPushObjectAddress Op = 0x97
	OpCall2             Op = 0x98 // 2 bytes
	OpCall4             Op = 0x99 // 4 bytes
	OpCallRef           Op = 0x9a // a section offset (4 bytes in 32-bit DWARF)
	OpFormTLSAddress    Op = 0x9b
	OpCallFrameCFA      Op = 0x9c
	OpBitPiece          Op = 0x9d // ULEB128 size, ULEB128 offset
	OpImplicitValue     Op = 0x9e // ULEB128 length, a block
	OpStackValue        Op = 0x9f
	OpImplicitPointer   Op = 0xa0 // a section offset, SLEB128
	OpAddrx             Op = 0xa1 // ULEB128 index into .debug_addr
	OpConstx            Op = 0xa2 // ULEB128 index into .debug_addr
	OpEntryValue        Op = 0xa3 // ULEB128 length, a block (an expression)
	OpConstType         Op = 0xa4 // ULEB128 type, 1-byte length, a block
	OpRegvalType        Op = 0xa5 // ULEB128 register, ULEB128 type
	OpDerefType         Op = 0xa6 // 1 byte, ULEB128 type
	OpXderefType        Op = 0xa7 // 1 byte, ULEB128 type
	OpConvert           Op = 0xa8 // ULEB128 type
	OpReinterpret       Op = 0xa9 // ULEB128 type

	OpGNUPushTLSAddress  Op = 0xe0
	OpGNUUninit          Op = 0xf0
	OpGNUEncodedAddr     Op = 0xf1 // 1-byte encoding, an address
	OpGNUImplicitPointer Op = 0xf2 // as OpImplicitPointer
	OpGNUEntryValue      Op = 0xf3 // as OpEntryValue
	OpGNUConstType       Op = 0xf4 // as OpConstType
	OpGNURegvalType      Op = 0xf5 // as OpRegvalType
	OpGNUDerefType       Op = 0xf6 // as OpDerefType
	OpGNUConvert         Op = 0xf7 // as OpConvert
	OpGNUReinterpret     Op = 0xf9 // as OpReinterpret
	OpGNUParameterRef    Op = 0xfa // 4 bytes
	OpGNUAddrIndex       Op = 0xfb // as OpAddrx
	OpGNUConstIndex      Op = 0xfc // as OpConstx
)
