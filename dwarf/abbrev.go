package dwarf

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// abbrev is one parsed abbreviation declaration: everything after its
// code. Declarations are interned (see declCache), so units whose tables
// declare the same attributes in the same forms share one abbrev; an
// abbrev therefore carries no code.
type abbrev struct {
	tag      Tag
	children bool
	// fixup is set when some attribute needs a second step after the raw
	// decode: indexed forms (strx, addrx, loclistx, rnglistx) resolved
	// through the unit's bases, or DW_FORM_indirect.
	fixup   bool
	sibling int32 // index of DW_AT_sibling among the attributes, or -1
	strp    int32 // index of the first DW_FORM_strp attribute, or -1
	// fixed is the encoded size of all attributes when every one has a
	// fixed size (then lay[i].off are their offsets), or -1.
	fixed int32
	// tmpl holds, for every attribute, the Field of a DIE before its value
	// is read: Attr, Form, Class set, Val holding the value of
	// implicit_const and the 1 of flag_present. lay gives the fixed size
	// of its encoding for the unit format the declaration was parsed for,
	// so the decoder reads it with one masked load instead of a dispatch
	// on the form.
	tmpl []Field
	lay  []fieldLay

	// The interning key: the declaration's bytes after the code, and the
	// unit format.
	raw  string
	uf   unitFormat
	next *abbrev // the next cached declaration with the same hash
}

// is reports whether a was parsed from the declaration bytes raw for
// units of format uf.
func (a *abbrev) is(raw []byte, uf unitFormat) bool { return a.uf == uf && a.raw == string(raw) }

type fieldLay struct {
	off  uint16 // offset of the attribute in the DIE, when abbrev.fixed >= 0
	size uint8
	ref  uint8 // 1 for a unit-relative reference, else 0
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
	native   bool // section and host are little-endian: the masked loads work
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

// abbrevTable is the abbreviation table of one unit: codes are normally
// 1..n in order, kept in dense; others go to sparse.
type abbrevTable struct {
	dense  []*abbrev
	sparse map[uint64]*abbrev
	size   int // bytes of .debug_abbrev the table spans
}

func (t *abbrevTable) lookup(code uint64) *abbrev {
	if code-1 < uint64(len(t.dense)) {
		return t.dense[code-1]
	}
	return t.sparse[code]
}

// parseAbbrev parses the table at off in the abbreviation section for
// units of format uf. Each declaration is first only scanned for its end
// and looked up in the declaration cache; the ones not seen before are
// then parsed in full (and their errors reported) by parseDecl, into
// memory allocated once for all of them.
// declSpecs reads the attribute specifications of an abbreviation
// declaration, from after its DW_CHILDREN byte up to its (0, 0) end:
// how many there are, whether one is in form f, and whether each is one
// parseDecl accepts (attribute and form in range, the form known). b.bad
// or b.pos > b.end after it says the declaration ran past the end.
func (b *reader) declSpecs(f Form) (n int, uses, clean bool) {
	clean = true
	// The position is kept in a local: b's fields stay in memory.
	data, p, end := b.data, b.pos, b.end
	for p <= end {
		// Attribute and form almost always take a byte each.
		var at, fm uint64
		if p+1 < end && data[p]|data[p+1] < 0x80 {
			at, fm = uint64(data[p]), uint64(data[p+1])
			p += 2
		} else {
			b.pos = p
			at, fm = b.uleb(), b.uleb()
			if p = b.pos; b.bad {
				break
			}
		}
		if at == 0 && fm == 0 {
			break
		}
		if fm == uint64(FormImplicitConst) {
			b.pos = p
			b.sleb()
			if p = b.pos; b.bad {
				break
			}
		}
		clean = clean && at <= 0xffff && fm <= 0xffff && knownForm(Form(fm))
		uses = uses || Form(fm) == f
		n++
	}
	b.pos = p
	return n, uses, clean
}

func parseAbbrev(sec []byte, off uint64, uf unitFormat) (*abbrevTable, error) {
	const name = ".debug_abbrev"
	if off >= uint64(len(sec)) {
		return nil, errorf(name, off, "abbreviation table offset beyond end of section (size 0x%x)", len(sec))
	}
	sc := scratchPool.Get().(*abbrevScratch)
	defer scratchPool.Put(sc)
	sc.decls, sc.codes, sc.miss = sc.decls[:0], sc.codes[:0], sc.miss[:0]
	b := reader{data: sec, pos: int(off), end: len(sec)}
	nattr, nraw := 0, 0 // attributes and bytes of the missing declarations
	for {
		start := b.pos
		code := b.uleb()
		if b.bad {
			return nil, errorf(name, uint64(start), "truncated abbreviation table")
		}
		if code == 0 {
			break
		}
		dstart := b.pos
		b.uleb() // tag
		b.pos++  // children
		n, _, _ := b.declSpecs(0)
		var a *abbrev
		if b.bad || b.pos > b.end {
			// Malformed: parseDecl reports where.
			_, err := parseDecl(sec, dstart, code, uf, &declSlab{})
			if err == nil {
				err = errorf(name, uint64(dstart), "truncated abbreviation %d", code)
			}
			return nil, err
		}
		a, h := sc.lookup(sec[dstart:b.pos], uf)
		if a == nil {
			sc.miss = append(sc.miss, missing{len(sc.decls), dstart, b.pos, h})
			nattr += n
			nraw += b.pos - dstart
		}
		sc.decls = append(sc.decls, a)
		sc.codes = append(sc.codes, code)
	}
	size := b.pos - int(off)
	if len(sc.miss) > 0 {
		slab := declSlab{
			abbrevs: make([]abbrev, len(sc.miss)),
			fields:  make([]Field, nattr),
			lays:    make([]fieldLay, nattr),
			raw:     make([]byte, 0, nraw),
		}
		for _, m := range sc.miss {
			a, err := parseDecl(sec, m.pos, sc.codes[m.i], uf, &slab)
			if err != nil {
				return nil, err
			}
			a = decls.add(a, m.h, sec[m.pos:m.end])
			sc.decls[m.i] = a
			sc.remember(a, m.h)
		}
	}
	t := &abbrevTable{size: size}
	dense := 0
	for dense < len(sc.codes) && sc.codes[dense] == uint64(dense+1) {
		dense++
	}
	t.dense = append([]*abbrev(nil), sc.decls[:dense]...)
	if dense < len(sc.codes) {
		t.sparse = make(map[uint64]*abbrev, len(sc.codes)-dense)
		for i := dense; i < len(sc.codes); i++ {
			c := sc.codes[i]
			if _, dup := t.sparse[c]; dup || c <= uint64(dense) {
				continue // the first declaration of a code wins
			}
			t.sparse[c] = sc.decls[i]
		}
	}
	return t, nil
}

// abbrevScratch is parseAbbrev's working memory, reused across calls
// (through a sync.Pool, so mostly by the same thread). recent is a small
// direct-mapped cache in front of the shared declaration cache: most
// declarations of a table were seen in the tables this thread parsed just
// before, and finding them there takes no lock and touches memory that is
// already in this core's cache.
type abbrevScratch struct {
	decls  []*abbrev
	codes  []uint64
	miss   []missing
	owner  *declCache // the cache recent was filled from
	recent [4096]recentDecl
}

type recentDecl struct {
	h uint64
	a *abbrev
}

// lookup finds the declaration with bytes raw for units of format uf, or
// nil, and returns the hash it was looked up by.
func (sc *abbrevScratch) lookup(raw []byte, uf unitFormat) (*abbrev, uint64) {
	if sc.owner != decls { // the cache was replaced (tests do)
		sc.recent, sc.owner = [len(sc.recent)]recentDecl{}, decls
	}
	h := decls.hash(raw, uf)
	e := &sc.recent[h%uint64(len(sc.recent))]
	if a := e.a; a != nil && e.h == h && a.is(raw, uf) {
		return a, h
	}
	s := decls.shard(h)
	s.mu.Lock()
	a := s.find(h, raw, uf)
	s.mu.Unlock()
	if a != nil {
		*e = recentDecl{h, a}
	}
	return a, h
}

func (sc *abbrevScratch) remember(a *abbrev, h uint64) {
	sc.recent[h%uint64(len(sc.recent))] = recentDecl{h, a}
}

// missing is a declaration not in the cache: its index in the table, its
// bytes' position and end, and their hash.
type missing struct {
	i, pos, end int
	h           uint64
}

var scratchPool = sync.Pool{New: func() any { return new(abbrevScratch) }}

// declSlab is memory for the declarations parsed from one table, handed
// out in order; parseDecl allocates itself when it runs out.
type declSlab struct {
	abbrevs []abbrev
	fields  []Field
	lays    []fieldLay
	raw     []byte
}

// parseDecl parses the declaration of abbreviation code whose bytes start
// (after the code) at pos.
func parseDecl(sec []byte, pos int, code uint64, uf unitFormat, slab *declSlab) (*abbrev, error) {
	const name = ".debug_abbrev"
	b := reader{data: sec, pos: pos, end: len(sec)}
	tag := b.uleb()
	if b.pos >= b.end {
		return nil, errorf(name, uint64(pos), "truncated abbreviation %d", code)
	}
	if tag > 0xffff {
		return nil, errorf(name, uint64(pos), "abbreviation %d: tag 0x%x out of range", code, tag)
	}
	children := b.data[b.pos]
	b.pos++
	if children > 1 {
		return nil, errorf(name, uint64(b.pos-1), "abbreviation %d: bad DW_CHILDREN value %d", code, children)
	}
	var a *abbrev
	if len(slab.abbrevs) > 0 {
		a, slab.abbrevs = &slab.abbrevs[0], slab.abbrevs[1:]
	} else {
		a = new(abbrev)
	}
	*a = abbrev{tag: Tag(tag), children: children == 1, sibling: -1, strp: -1, uf: uf}
	tmpl, lay := slab.fields[:0:len(slab.fields)], slab.lays[:0:len(slab.lays)]
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
		if !knownForm(form) {
			return nil, errorf(name, uint64(apos), "abbreviation %d: unknown form 0x%x for %v", code, fm, f.Attr)
		}
		if form == FormFlagPresent {
			f.Val = 1
		}
		f.Class = formClass(form, f.Attr, uf.version)
		a.fixup = a.fixup || needsFixup(form)
		if form == FormStrp && a.strp < 0 {
			a.strp = int32(len(tmpl))
		}
		if f.Attr == AttrSibling && a.sibling < 0 {
			a.sibling = int32(len(tmpl))
		}
		tmpl = append(tmpl, f)
		lay = append(lay, fieldLay{size: fixedSize(form, uf), ref: b2u8(isUnitRef(form))})
	}
	if n := len(tmpl); n <= len(slab.fields) && n <= len(slab.lays) {
		slab.fields, slab.lays = slab.fields[n:], slab.lays[n:]
	}
	a.tmpl, a.lay = tmpl[:len(tmpl):len(tmpl)], lay[:len(lay):len(lay)]
	a.fixed = 0
	for i := range a.lay {
		l := &a.lay[i]
		if l.size == varSize || a.fixed+int32(l.size) > 0xffff {
			a.fixed = -1
			break
		}
		l.off = uint16(a.fixed)
		a.fixed += int32(l.size)
	}
	raw := sec[pos:b.pos]
	if cap(slab.raw)-len(slab.raw) >= len(raw) {
		k := len(slab.raw)
		slab.raw = append(slab.raw, raw...)
		a.raw = unsafe.String(&slab.raw[k], len(raw))
	} else {
		a.raw = string(raw)
	}
	return a, nil
}

// declCache interns parsed abbreviation declarations process-wide, keyed
// by their bytes and unit format. The tables of a large file differ from
// unit to unit (2,136 distinct tables for the 2,172 units of the Debian
// vmlinux), but the declarations in them repeat: parsing each table into
// fresh memory cost about a tenth of a full walk, mostly in page faults on
// 60 MB of templates. Shared declarations also keep the templates the
// decoder reads hot in cache. The cache holds copies of the bytes, never
// views of a file, and is bounded: past maxDecls entries, new
// declarations are parsed and used without being kept.
type declCache struct {
	seed   maphash.Seed
	n      atomic.Int64
	shards [64]declShard
}

type declShard struct {
	mu sync.Mutex
	m  map[uint64]*abbrev
	_  [40]byte // keep shards on separate cache lines
}

const maxDecls = 1 << 20

var decls = &declCache{seed: maphash.MakeSeed()}

func (c *declCache) hash(raw []byte, uf unitFormat) uint64 {
	h := maphash.Bytes(c.seed, raw)
	return h ^ uint64(uf.version)<<56 ^ uint64(uf.offSize)<<48 ^ uint64(uf.addrSize)<<40
}

func (c *declCache) shard(h uint64) *declShard { return &c.shards[h%uint64(len(c.shards))] }

// find returns the cached declaration with hash h, bytes raw and unit
// format uf, or nil. The caller holds s.mu.
func (s *declShard) find(h uint64, raw []byte, uf unitFormat) *abbrev {
	for a := s.m[h]; a != nil; a = a.next {
		if a.is(raw, uf) {
			return a
		}
	}
	return nil
}

// add interns a, parsed from raw whose hash is h, and returns the cached
// declaration equal to it (a itself unless another goroutine added one
// first).
func (c *declCache) add(a *abbrev, h uint64, raw []byte) *abbrev {
	if c.n.Load() >= maxDecls {
		return a
	}
	s := c.shard(h)
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.find(h, raw, a.uf); b != nil {
		return b
	}
	if s.m == nil {
		s.m = map[uint64]*abbrev{}
	}
	a.next = s.m[h]
	s.m[h] = a
	c.n.Add(1)
	return a
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// isUnitRef reports whether form f is a reference relative to its unit.
func isUnitRef(f Form) bool {
	switch f {
	case FormRef1, FormRef2, FormRef4, FormRef8:
		return true
	}
	return false
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
