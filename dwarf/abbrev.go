package dwarf

// attrSpec is one attribute of an abbreviation: name, form, the class the
// pair decodes to, and the value of a DW_FORM_implicit_const.
type attrSpec struct {
	attr     Attr
	form     Form
	class    Class
	implicit int64
}

// abbrev is one abbreviation declaration.
type abbrev struct {
	tag      Tag
	children bool
	// fixup is set when some attribute needs a second step after the raw
	// decode: indexed forms (strx, addrx, loclistx, rnglistx) resolved
	// through the unit's bases, or DW_FORM_indirect.
	fixup   bool
	sibling int // index of DW_AT_sibling in specs, or -1
	specs   []attrSpec
	// tmpl is the Fields of a DIE with this abbreviation before its values
	// are read: Attr, Form, Class set, Val holding implicit constants.
	tmpl []Field
}

// abbrevTable is the abbreviation table of one unit. Codes are normally
// 1..n in order, kept in dense; others go to sparse.
type abbrevTable struct {
	dense  []abbrev
	sparse map[uint64]*abbrev
	size   int // bytes of .debug_abbrev the table spans
}

func (t *abbrevTable) lookup(code uint64) *abbrev {
	if code-1 < uint64(len(t.dense)) {
		return &t.dense[code-1]
	}
	return t.sparse[code]
}

// parseAbbrev parses the table at off in the abbreviation section for a
// unit of the given version. Every count it allocates for is bounded by
// the bytes it has consumed.
func parseAbbrev(sec []byte, off uint64, version int) (*abbrevTable, error) {
	const name = ".debug_abbrev"
	if off >= uint64(len(sec)) {
		return nil, errorf(name, off, "abbreviation table offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec)}
	type decl struct {
		code     uint64
		tag      Tag
		children bool
		fixup    bool
		sibling  int
		lo, hi   int
	}
	ndecl, nspec := countAbbrev(sec, int(off))
	decls := make([]decl, 0, ndecl)
	specs := make([]attrSpec, 0, nspec)
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
		dc := decl{code: code, tag: Tag(tag), children: children == 1, sibling: -1, lo: len(specs)}
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
			sp := attrSpec{attr: Attr(at), form: Form(fm)}
			if sp.form == FormImplicitConst {
				sp.implicit = b.sleb()
				if b.bad {
					return nil, errorf(name, uint64(apos), "abbreviation %d: truncated implicit constant", code)
				}
			}
			if !knownForm(sp.form) {
				return nil, errorf(name, uint64(apos), "abbreviation %d: unknown form 0x%x for %v", code, fm, sp.attr)
			}
			sp.class = formClass(sp.form, sp.attr, version)
			if needsFixup(sp.form) {
				dc.fixup = true
			}
			if sp.attr == AttrSibling && dc.sibling < 0 {
				dc.sibling = len(specs) - dc.lo
			}
			specs = append(specs, sp)
		}
		dc.hi = len(specs)
		decls = append(decls, dc)
	}
	t := &abbrevTable{size: b.pos - int(off)}
	ndense := 0
	for ndense < len(decls) && decls[ndense].code == uint64(ndense+1) {
		ndense++
	}
	t.dense = make([]abbrev, ndense)
	tmpl := make([]Field, len(specs))
	for i, sp := range specs {
		tmpl[i] = Field{Attr: sp.attr, Form: sp.form, Class: sp.class, Val: uint64(sp.implicit)}
	}
	mk := func(dc decl) abbrev {
		return abbrev{tag: dc.tag, children: dc.children, fixup: dc.fixup, sibling: dc.sibling,
			specs: specs[dc.lo:dc.hi:dc.hi], tmpl: tmpl[dc.lo:dc.hi:dc.hi]}
	}
	for i := 0; i < ndense; i++ {
		t.dense[i] = mk(decls[i])
	}
	if ndense < len(decls) {
		t.sparse = make(map[uint64]*abbrev, len(decls)-ndense)
		for _, dc := range decls[ndense:] {
			if _, dup := t.sparse[dc.code]; dup || dc.code <= uint64(ndense) {
				continue // the first declaration of a code wins
			}
			a := mk(dc)
			t.sparse[dc.code] = &a
		}
	}
	return t, nil
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
