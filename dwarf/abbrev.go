package dwarf

// abbrev is one abbreviation declaration. Its attributes are
// tmpl[lo:hi] and lay[lo:hi] of its table.
type abbrev struct {
	code     uint64
	tag      Tag
	children bool
	// fixup is set when some attribute needs a second step after the raw
	// decode: indexed forms (strx, addrx, loclistx, rnglistx) resolved
	// through the unit's bases, or DW_FORM_indirect.
	fixup   bool
	sibling int32 // index of DW_AT_sibling among the attributes, or -1
	lo, hi  uint32
	// fixed is the encoded size of all attributes when every one has a
	// fixed size (then lay[i].off are their offsets), or -1.
	fixed int32
}

// fieldLay is the fixed encoding of one attribute: size bytes (0..8) or
// varSize when the size depends on the data; ref marks unit-relative
// references.
type fieldLay struct {
	off  uint16 // offset of the attribute in the DIE, when abbrev.fixed >= 0
	size uint8
	ref  bool
}

const varSize = 0xff

// sizeMask[n] keeps the low n bytes of a little-endian 8-byte load (n <=
// 8; 256 entries so that indexing by a uint8 needs no bounds check).
var sizeMask = [256]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

// unitFormat is what the size of an attribute encoding depends on.
type unitFormat struct {
	version  int
	offSize  int
	addrSize int
	native   bool // section byte order is the host's: the masked loads work
}

// fixedSize returns the encoded size of form f in units of format uf, or
// varSize.
func fixedSize(f Form, uf unitFormat) uint8 {
	if !uf.native {
		return varSize
	}
	switch f {
	case FormFlagPresent, FormImplicitConst:
		return 0
	case FormData1, FormRef1, FormFlag, FormStrx1, FormAddrx1:
		return 1
	case FormData2, FormRef2, FormStrx2, FormAddrx2:
		return 2
	case FormStrx3, FormAddrx3:
		return 3
	case FormData4, FormRef4, FormStrx4, FormAddrx4, FormRefSup4:
		return 4
	case FormData8, FormRef8, FormRefSig8, FormRefSup8:
		return 8
	case FormStrp, FormLineStrp, FormSecOffset, FormGNURefAlt, FormGNUStrpAlt, FormStrpSup:
		return uint8(uf.offSize)
	case FormAddr:
		return uint8(uf.addrSize)
	case FormRefAddr:
		if uf.version == 2 {
			return uint8(uf.addrSize)
		}
		return uint8(uf.offSize)
	}
	return varSize
}

// abbrevTable is the abbreviation table of one unit. Codes are normally
// 1..n in order, kept in dense; others go to sparse.
//
// tmpl holds, for every attribute of every abbreviation, the Field of a
// DIE before its value is read: Attr, Form, Class set, Val holding the
// value of implicit_const and the 1 of flag_present. lay gives the fixed
// size of its encoding for the units the table was parsed for, so the
// decoder can read it with one masked load instead of a dispatch on the
// form.
type abbrevTable struct {
	dense  []abbrev
	sparse map[uint64]*abbrev
	tmpl   []Field
	lay    []fieldLay
	size   int // bytes of .debug_abbrev the table spans
}

func (t *abbrevTable) lookup(code uint64) *abbrev {
	if code-1 < uint64(len(t.dense)) {
		return &t.dense[code-1]
	}
	return t.sparse[code]
}

// parseAbbrev parses the table at off in the abbreviation section for
// units of format uf. Every count it allocates for is bounded by the bytes
// of the section.
func parseAbbrev(sec []byte, off uint64, uf unitFormat) (*abbrevTable, error) {
	const name = ".debug_abbrev"
	if off >= uint64(len(sec)) {
		return nil, errorf(name, off, "abbreviation table offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec)}
	ndecl, nspec := countAbbrev(sec, int(off))
	t := &abbrevTable{
		dense: make([]abbrev, 0, ndecl),
		tmpl:  make([]Field, 0, nspec),
		lay:   make([]fieldLay, 0, nspec),
	}
	var extra []abbrev // codes out of sequence
	var fis [numForms]formInfo
	for f := Form(0); f < numForms; f++ {
		fis[f] = makeFormInfo(f, uf)
	}
	for {
		start := b.pos
		code := b.uleb()
		if b.bad {
			return nil, errorf(name, uint64(start), "truncated abbreviation table")
		}
		if code == 0 {
			break
		}
		tag := b.uleb()
		if b.pos >= b.end {
			return nil, errorf(name, uint64(start), "truncated abbreviation %d", code)
		}
		if tag > 0xffff {
			return nil, errorf(name, uint64(start), "abbreviation %d: tag 0x%x out of range", code, tag)
		}
		children := b.data[b.pos]
		b.pos++
		if children > 1 {
			return nil, errorf(name, uint64(b.pos-1), "abbreviation %d: bad DW_CHILDREN value %d", code, children)
		}
		a := abbrev{code: code, tag: Tag(tag), children: children == 1, sibling: -1, lo: uint32(len(t.tmpl))}
		for {
			apos := b.pos
			at := b.uleb()
			fm := b.uleb()
			if b.bad {
				return nil, errorf(name, uint64(apos), "abbreviation %d: truncated attribute list", code)
			}
			if at == 0 && fm == 0 {
				break
			}
			if at > 0xffff || fm > 0xffff {
				return nil, errorf(name, uint64(apos), "abbreviation %d: attribute 0x%x form 0x%x out of range", code, at, fm)
			}
			form := Form(fm)
			f := Field{Attr: Attr(at), Form: form}
			if form == FormImplicitConst {
				f.Val = uint64(b.sleb())
				if b.bad {
					return nil, errorf(name, uint64(apos), "abbreviation %d: truncated implicit constant", code)
				}
			}
			var fi formInfo
			if form < numForms {
				fi = fis[form]
			} else {
				fi = makeFormInfo(form, uf)
			}
			if !fi.known {
				return nil, errorf(name, uint64(apos), "abbreviation %d: unknown form 0x%x for %v", code, fm, f.Attr)
			}
			if form == FormFlagPresent {
				f.Val = 1
			}
			f.Class = fi.class
			if fi.attrDep {
				f.Class = formClass(form, f.Attr, uf.version)
			}
			a.fixup = a.fixup || fi.fixup
			if f.Attr == AttrSibling && a.sibling < 0 {
				a.sibling = int32(uint32(len(t.tmpl)) - a.lo)
			}
			l := fieldLay{size: fi.size, ref: fi.ref}
			t.tmpl = append(t.tmpl, f)
			t.lay = append(t.lay, l)
		}
		a.hi = uint32(len(t.tmpl))
		a.fixed = 0
		for i := a.lo; i < a.hi; i++ {
			l := &t.lay[i]
			if l.size == varSize || a.fixed+int32(l.size) > 0xffff {
				a.fixed = -1
				break
			}
			l.off = uint16(a.fixed)
			a.fixed += int32(l.size)
		}
		if len(extra) == 0 && code == uint64(len(t.dense)+1) {
			t.dense = append(t.dense, a)
		} else {
			extra = append(extra, a)
		}
	}
	t.size = b.pos - int(off)
	if len(extra) > 0 {
		t.sparse = make(map[uint64]*abbrev, len(extra))
		for i := range extra {
			a := &extra[i]
			if _, dup := t.sparse[a.code]; dup || a.code <= uint64(len(t.dense)) {
				continue // the first declaration of a code wins
			}
			t.sparse[a.code] = a
		}
	}
	return t, nil
}

// formInfo is what parsing an abbreviation needs to know about a form,
// computed once per table for the standard forms.
type formInfo struct {
	known   bool
	fixup   bool
	attrDep bool  // the class depends on the attribute
	class   Class // otherwise, the class
	size    uint8 // fixedSize
	ref     bool  // unit-relative reference
}

const numForms = FormAddrx4 + 1

func makeFormInfo(f Form, uf unitFormat) formInfo {
	fi := formInfo{known: knownForm(f), fixup: needsFixup(f), size: fixedSize(f, uf)}
	switch f {
	case FormBlock1, FormBlock2, FormBlock4, FormBlock, FormSecOffset,
		FormData1, FormData2, FormData4, FormData8, FormSdata, FormUdata, FormData16, FormImplicitConst:
		fi.attrDep = true
	default:
		fi.class = formClass(f, 0, uf.version)
	}
	switch f {
	case FormRef1, FormRef2, FormRef4, FormRef8:
		fi.ref = true
	}
	return fi
}

// countAbbrev counts the declarations and attribute specifications of the
// table at off, stopping quietly at malformed input (the parse reports it).
// The counts are bounded by the section size.
func countAbbrev(sec []byte, off int) (ndecl, nspec int) {
	b := reader{data: sec, pos: off, end: len(sec)}
	for !b.bad {
		if b.uleb() == 0 {
			return
		}
		b.uleb()
		b.u8()
		ndecl++
		for !b.bad {
			at, fm := b.uleb(), b.uleb()
			if at == 0 && fm == 0 {
				break
			}
			if fm == uint64(FormImplicitConst) {
				b.sleb()
			}
			nspec++
		}
	}
	return
}

func knownForm(f Form) bool {
	switch {
	case f >= FormAddr && f <= FormAddrx4 && f != 0x02:
		return true
	case f == FormGNUAddrIndex, f == FormGNUStrIndex, f == FormGNURefAlt, f == FormGNUStrpAlt:
		return true
	}
	return false
}

func needsFixup(f Form) bool {
	switch f {
	case FormStrx, FormStrx1, FormStrx2, FormStrx3, FormStrx4, FormGNUStrIndex,
		FormAddrx, FormAddrx1, FormAddrx2, FormAddrx3, FormAddrx4, FormGNUAddrIndex,
		FormLoclistx, FormRnglistx, FormIndirect:
		return true
	}
	return false
}

// attrIsExprloc lists attributes whose block values are DWARF expressions
// (in DWARF 2 and 3, exprlocs were encoded as blocks).
func attrIsExprloc(a Attr) bool {
	switch a {
	case AttrLocation, AttrByteSize, AttrBitOffset, AttrBitSize, AttrStringLength,
		AttrLowerBound, AttrReturnAddr, AttrBitStride, AttrUpperBound, AttrCount,
		AttrDataMemberLocation, AttrFrameBase, AttrSegment, AttrStaticLink,
		AttrUseLocation, AttrVtableElemLocation, AttrAllocated, AttrAssociated,
		AttrDataLocation, AttrByteStride:
		return true
	}
	return false
}

// attrPtrClass gives the class of a section-offset value of attribute a.
func attrPtrClass(a Attr) Class {
	switch a {
	case AttrLocation, AttrStringLength, AttrReturnAddr, AttrDataMemberLocation,
		AttrFrameBase, AttrSegment, AttrStaticLink, AttrUseLocation,
		AttrVtableElemLocation, AttrLoclistsBase:
		return ClassLocListPtr
	case AttrStmtList:
		return ClassLinePtr
	case AttrStartScope, AttrRanges:
		return ClassRangeListPtr
	case AttrMacroInfo, AttrMacros, AttrGNUMacros:
		return ClassMacPtr
	case AttrStrOffsetsBase:
		return ClassStrOffsetsPtr
	case AttrAddrBase, AttrGNUAddrBase:
		return ClassAddrPtr
	case AttrRnglistsBase, AttrGNURangesBase:
		return ClassRngListsPtr
	}
	return ClassUnknown
}

// formClass is the class of attribute a in form f in a unit of version v.
func formClass(f Form, a Attr, v int) Class {
	switch f {
	case FormAddr, FormAddrx, FormAddrx1, FormAddrx2, FormAddrx3, FormAddrx4, FormGNUAddrIndex:
		return ClassAddress
	case FormBlock1, FormBlock2, FormBlock4, FormBlock:
		if attrIsExprloc(a) {
			return ClassExprLoc
		}
		return ClassBlock
	case FormData1, FormData2, FormData4, FormData8, FormSdata, FormUdata, FormData16, FormImplicitConst:
		if v < 4 {
			if c := attrPtrClass(a); c != ClassUnknown && (f == FormData4 || f == FormData8) {
				return c
			}
		}
		return ClassConstant
	case FormFlag, FormFlagPresent:
		return ClassFlag
	case FormRefAddr, FormRef1, FormRef2, FormRef4, FormRef8, FormRefUdata:
		return ClassReference
	case FormRefSup4, FormRefSup8, FormGNURefAlt:
		return ClassReferenceAlt
	case FormRefSig8:
		return ClassReferenceSig
	case FormString, FormStrp, FormStrx, FormLineStrp, FormStrx1, FormStrx2, FormStrx3, FormStrx4, FormGNUStrIndex:
		return ClassString
	case FormStrpSup, FormGNUStrpAlt:
		return ClassStringAlt
	case FormSecOffset:
		return attrPtrClass(a)
	case FormExprloc:
		return ClassExprLoc
	case FormLoclistx:
		return ClassLocList
	case FormRnglistx:
		return ClassRngList
	}
	return ClassUnknown
}
