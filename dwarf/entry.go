package dwarf

// Field is one decoded attribute of a DIE. It holds no pointers (so that
// filling millions of them costs no GC work); Val holds the value,
// normalised by class so that no further decoding is needed:
//
//	ClassAddress        the address (DW_FORM_addrx* already looked up in .debug_addr)
//	ClassConstant       the bits of the constant: zero-extended for data1..8 and
//	                    udata, sign-extended for sdata and implicit_const (see
//	                    Int, Uint, Signed, SignExtend); for data16, the bytes
//	                    (Data.Bytes)
//	ClassFlag           0 or 1 (the byte of DW_FORM_flag; 1 for flag_present)
//	ClassReference      the global Offset of the referenced DIE
//	ClassReferenceAlt   an offset in the alternate (dwz / supplementary) file's .debug_info
//	ClassReferenceSig   the 8-byte type signature (see Data.TypeUnit)
//	ClassString         the offset into .debug_str (strp, strx*: already looked up
//	                    in .debug_str_offsets) or .debug_line_str (line_strp);
//	                    for DW_FORM_string, the bytes in the unit (Data.String
//	                    resolves all of them)
//	ClassStringAlt      an offset into the alternate file's .debug_str
//	ClassBlock, ClassExprLoc   the bytes (Data.Bytes)
//	ClassLocList        the offset in .debug_loclists (loclistx looked up)
//	ClassRngList        the offset in .debug_rnglists (rnglistx looked up)
//	Class*Ptr           the section offset
//
// "The bytes" are stored as the global Offset of their first byte in Val
// and their length in Len; Data.Bytes returns them as a view.
type Field struct {
	Val   uint64
	Len   uint32 // length of the bytes of blocks, exprlocs, DW_FORM_string, data16
	Attr  Attr
	Form  Form
	Class Class
}

// HasBytes reports whether the value is a byte string in the unit's
// section (block, exprloc, DW_FORM_string, data16) rather than a number.
func (f *Field) HasBytes() bool {
	switch f.Form {
	case FormBlock, FormBlock1, FormBlock2, FormBlock4, FormExprloc, FormString, FormData16:
		return true
	}
	return false
}

// Int returns the value as a signed integer (for constants, meaningful as
// such for sdata, implicit_const and data forms the producer meant signed).
func (f *Field) Int() int64 { return int64(f.Val) }

// Uint returns the value as an unsigned integer.
func (f *Field) Uint() uint64 { return f.Val }

// Signed reports whether the form itself says the constant is signed
// (DW_FORM_sdata, DW_FORM_implicit_const). DW_FORM_data1..8 carry no
// signedness: the consumer decides from the DIE's type (for enumerators,
// the encoding of the enumeration's underlying type), sign-extending with
// SignExtend.
func (f *Field) Signed() bool { return f.Form == FormSdata || f.Form == FormImplicitConst }

// SignExtend returns the constant sign-extended from the width of its
// form (1, 2, 4 or 8 bytes for data1..8; unchanged for other forms).
func (f *Field) SignExtend() int64 {
	switch f.Form {
	case FormData1:
		return int64(int8(f.Val))
	case FormData2:
		return int64(int16(f.Val))
	case FormData4:
		return int64(int32(f.Val))
	}
	return int64(f.Val)
}

// Ref returns the referenced global Offset for ClassReference fields.
func (f *Field) Ref() Offset { return Offset(f.Val) }

// Entry is one DIE. Readers fill a caller-owned Entry; its Fields slice is
// reused from one call to the next, so nothing is allocated per DIE once
// it has grown to the largest abbreviation seen. Copy what you keep, and
// treat Fields as read-only: the decoder relies on what it left there.
//
// A null entry (the end of a list of siblings) has Tag 0, no fields and
// the Depth of the siblings it ends.
type Entry struct {
	Offset   Offset // global offset
	Tag      Tag
	Children bool
	Depth    int // nesting depth in the unit (root DIE: 0), as tracked by Next
	Fields   []Field

	ab   *abbrev
	sink uint8 // where Next and decode put the name byte they load early
}

// Field returns the field for attribute a, or nil.
func (e *Entry) Field(a Attr) *Field {
	for i := range e.Fields {
		if e.Fields[i].Attr == a {
			return &e.Fields[i]
		}
	}
	return nil
}

// Has reports whether the entry has attribute a.
func (e *Entry) Has(a Attr) bool { return e.Field(a) != nil }

// Uint returns the value of attribute a and whether it is present.
func (e *Entry) Uint(a Attr) (uint64, bool) {
	if f := e.Field(a); f != nil {
		return f.Val, true
	}
	return 0, false
}

// Ref returns the global offset attribute a refers to, if a is present
// with class ClassReference.
func (e *Entry) Ref(a Attr) (Offset, bool) {
	if f := e.Field(a); f != nil && f.Class == ClassReference {
		return Offset(f.Val), true
	}
	return 0, false
}

// Flag reports whether the flag attribute a is present and true.
func (e *Entry) Flag(a Attr) bool {
	f := e.Field(a)
	return f != nil && f.Class == ClassFlag && f.Val != 0
}

// Take is how readers of entries keep a numeric attribute (a reference,
// a constant, an address), one rule for all of them: when f's value is of
// class c, it goes to *dst and bit is set in *has; Take reports whether
// it did. encode's type converter and encode/internal/funcvar's entries
// decode their attributes through it.
func Take[F ~uint32](f *Field, c Class, dst *uint64, has *F, bit F) bool {
	if f.Class != c {
		return false
	}
	*dst = f.Val
	*has |= bit
	return true
}

// TakeFlag sets bit in *has when f's value, a flag's (or a code's the
// caller compared), is not zero: DW_FORM_flag 0 says false.
func TakeFlag[F ~uint32](f *Field, has *F, bit F) {
	if f.Val != 0 {
		*has |= bit
	}
}
