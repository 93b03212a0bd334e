package encode

import (
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// The names of LLVM's and GNU's annotation entries (DW_AT_name of
// DW_TAG_LLVM_annotation and DW_TAG_GNU_annotation) that carry BTF tags.
const (
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
	hasAlignment // DW_AT_alignment (facts.go)
)

// die is one debugging information entry as the converter sees it: its
// position, tag and the attributes the encoder uses, already decoded. A
// DWARF reader fills one die per entry (null entries are not passed) and
// may reuse it for the next; strings may be views of the reader's sections,
// which the converter keeps only while the unit is being converted.
//
// This record (with funcvar.Entry, its function and variable part) is the
// whole interface between DWARF reading and BTF encoding: anything that
// can fill it can be encoded.
type die struct {
	off      uint64 // global offset of the entry, strictly increasing within a unit
	depth    int    // nesting depth: the unit's root entry is 0
	tag      dwarf.Tag
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
	encoding    dwarf.Encoding
	annotation  uint64 // DW_AT_GNU_annotation: global offset of a DW_TAG_GNU_annotation
	language    uint16 // DW_AT_language of the root entry
	alignment   uint64 // DW_AT_alignment (facts.go)

	// fn is the entry as function and variable selection reads it,
	// filled for the entries it wants (funcvar.Wanted); its position is
	// set for every entry.
	fn       funcvar.Entry
	fnFilled bool // fn holds attributes: reset clears them
}

// reset clears d for the next entry, keeping nothing. It clears only what
// the last entry may have set: the attributes when it had any (each one
// fastField sets comes with its bit in has), fn when it was filled.
// Zeroing the whole record for each of a vmlinux's 14 M entries, most of
// which fill no function or variable attributes, was 4% of an encode.
func (d *die) reset() {
	d.off, d.depth, d.tag, d.children, d.language = 0, 0, 0, false, 0
	if d.has != 0 {
		d.has = 0
		d.name, d.typ, d.byteSize, d.bitSize, d.bitOffset, d.dataBitOff = "", 0, 0, 0, 0, 0
		d.memberLoc, d.upperBound, d.count, d.constValue, d.constSigned = 0, 0, 0, 0, false
		d.constString, d.encoding, d.annotation, d.alignment = "", 0, 0, 0
	}
	if d.fnFilled {
		d.fn, d.fnFilled = funcvar.Entry{}, false
	}
}

// evalMemberLoc evaluates a DW_AT_data_member_location expression the way
// pahole does for the forms compilers emit: DW_OP_plus_uconst N and
// DW_OP_constu N give N; anything else gives 0.
func evalMemberLoc(expr []byte) uint64 {
	if len(expr) < 2 {
		return 0
	}
	switch expr[0] {
	case byte(dwarf.OpPlusUconst), byte(dwarf.OpConstu):
		v, _ := dwarf.ULEB128(expr[1:])
		return v
	}
	return 0
}
