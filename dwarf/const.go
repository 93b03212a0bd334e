package dwarf

import (
	"fmt"
	"strconv"
)

// Tag is a DIE tag (DW_TAG_*).
type Tag uint16

// Attr is an attribute name (DW_AT_*).
type Attr uint16

// Form is an attribute form (DW_FORM_*).
type Form uint16

// String returns the DWARF name, "DW_TAG_structure_type", or
// "DW_TAG_0x1234" for tags this package does not know.
func (t Tag) String() string {
	if s, ok := tagNames[t]; ok {
		return s
	}
	return fmt.Sprintf("DW_TAG_0x%04x", uint16(t))
}

// String returns the DWARF name, "DW_AT_name", or "DW_AT_0x1234".
func (a Attr) String() string {
	if s, ok := attrNames[a]; ok {
		return s
	}
	return fmt.Sprintf("DW_AT_0x%04x", uint16(a))
}

// String returns the DWARF name, "DW_FORM_strp", or "DW_FORM_0x1234".
func (f Form) String() string {
	if s, ok := formNames[f]; ok {
		return s
	}
	return fmt.Sprintf("DW_FORM_0x%04x", uint16(f))
}

// Offset is a global DIE offset: the offset of the DIE in .debug_info, or,
// for DIEs of DWARF 4 type units in .debug_types, TypesBase plus the offset
// in .debug_types. Offsets are what references resolve to and what
// UnitReader.EntryAt takes.
type Offset uint64

// TypesBase is added to .debug_types offsets to keep them apart from
// .debug_info offsets in one Offset space.
const TypesBase Offset = 1 << 62

// UnitType is a DWARF 5 unit type (DW_UT_*). Units of earlier versions get
// UTCompile, or UTType for units in .debug_types.
type UnitType uint8

const (
	UTCompile      UnitType = 0x01
	UTType         UnitType = 0x02
	UTPartial      UnitType = 0x03
	UTSkeleton     UnitType = 0x04
	UTSplitCompile UnitType = 0x05
	UTSplitType    UnitType = 0x06
)

func (u UnitType) String() string {
	switch u {
	case UTCompile:
		return "DW_UT_compile"
	case UTType:
		return "DW_UT_type"
	case UTPartial:
		return "DW_UT_partial"
	case UTSkeleton:
		return "DW_UT_skeleton"
	case UTSplitCompile:
		return "DW_UT_split_compile"
	case UTSplitType:
		return "DW_UT_split_type"
	}
	return "DW_UT_0x" + strconv.FormatUint(uint64(u), 16)
}

// Class is the class of an attribute value (DWARF 5 section 7.5.5),
// determined from the form and, for section offsets and DWARF 2/3
// constants, from the attribute. The names match Go's debug/dwarf.
type Class uint8

const (
	ClassUnknown Class = iota
	ClassAddress
	ClassBlock
	ClassConstant
	ClassExprLoc
	ClassFlag
	ClassLinePtr
	ClassLocListPtr
	ClassMacPtr
	ClassRangeListPtr
	ClassReference
	ClassReferenceSig
	ClassString
	ClassReferenceAlt
	ClassStringAlt
	ClassAddrPtr
	ClassLocList
	ClassRngList
	ClassRngListsPtr
	ClassStrOffsetsPtr
)

var classNames = [...]string{
	"ClassUnknown", "ClassAddress", "ClassBlock", "ClassConstant", "ClassExprLoc",
	"ClassFlag", "ClassLinePtr", "ClassLocListPtr", "ClassMacPtr", "ClassRangeListPtr",
	"ClassReference", "ClassReferenceSig", "ClassString", "ClassReferenceAlt",
	"ClassStringAlt", "ClassAddrPtr", "ClassLocList", "ClassRngList",
	"ClassRngListsPtr", "ClassStrOffsetsPtr",
}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// Languages (DW_LANG_*) an encoder typically needs to tell apart.
const (
	LangC89           = 0x0001
	LangC             = 0x0002
	LangCPlusPlus     = 0x0004
	LangC99           = 0x000c
	LangRust          = 0x001c
	LangC11           = 0x001d
	LangCPlusPlus11   = 0x001a
	LangCPlusPlus14   = 0x0021
	LangC17           = 0x002c
	LangMipsAssembler = 0x8001
)
