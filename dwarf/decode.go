package dwarf

import (
	"math/bits"
	"unsafe"
)

// unitCtx is what decoding a DIE of one unit needs: the unit, its section,
// its abbreviations and the bases from its root DIE. It is built once per
// unit and shared (read-only) by all readers.
type unitCtx struct {
	d       *Data
	u       *Unit
	sec     []byte // whole section (.debug_info or .debug_types)
	str     []byte // .debug_str
	base    Offset // global offset of sec[0]
	start   int    // first DIE, in sec
	end     int    // end of unit, in sec
	abbrevs *abbrevTable
	big     bool
	native  bool // section byte order is the host's
	off8    bool
	asize   int

	strOffsetsBase uint64
	addrBase       uint64
	rnglistsBase   uint64
	loclistsBase   uint64
	lowPC          uint64 // the unit's base address
	lang           uint64
	producer       string
	name           string
	compDir        string
	hasCompDir     bool
	stmtList       uint64 // DW_AT_stmt_list (linefiles.go)
	hasStmtList    bool
}

// ctx returns the decoding context of unit i, building it on first use.
func (d *Data) ctx(i int) (*unitCtx, error) {
	if c := d.ctxs[i].Load(); c != nil {
		return c, nil
	}
	c, err := d.newCtx(&d.units[i])
	if err != nil {
		return nil, err
	}
	if !d.ctxs[i].CompareAndSwap(nil, c) {
		c = d.ctxs[i].Load()
	}
	return c, nil
}

func (d *Data) newCtx(u *Unit) (*unitCtx, error) {
	c := &unitCtx{d: d, u: u, str: d.sec.Str, big: d.sec.BigEndian, native: d.sec.BigEndian == hostBigEndian, off8: u.OffsetSize == 8, asize: u.AddrSize}
	if u.Section == ".debug_types" {
		c.sec, c.base = d.sec.Types, TypesBase
	} else {
		c.sec = d.sec.Info
	}
	c.start = int(u.First - c.base)
	c.end = int(u.End - c.base)
	t, err := d.abbrevTable(u.AbbrevOffset, unitFormat{version: u.Version, offSize: u.OffsetSize, addrSize: u.AddrSize, native: c.native && !hostBigEndian})
	if err != nil {
		return nil, err
	}
	c.abbrevs = t
	if u.Version >= 5 {
		// DWARF 5 defaults when the root DIE gives no base: just past the
		// header of the first contribution (as for split units).
		hdr := uint64(8)
		if c.off8 {
			hdr = 16
		}
		c.strOffsetsBase = hdr
		c.addrBase = hdr
		c.rnglistsBase = hdr + 4 // the list headers also have offset_entry_count
		c.loclistsBase = hdr + 4
	}
	if c.start >= c.end {
		return c, nil // no DIEs
	}
	// Read the bases from the root DIE without resolving indexed forms,
	// then resolve what the root itself needs (low_pc may be an addrx
	// that comes before DW_AT_addr_base).
	var e Entry
	if _, err := c.decode(c.start, &e, false); err != nil {
		return nil, err
	}
	for i := range e.Fields {
		f := &e.Fields[i]
		switch f.Attr {
		case AttrStrOffsetsBase:
			c.strOffsetsBase = f.Val
		case AttrAddrBase, AttrGNUAddrBase:
			c.addrBase = f.Val
		case AttrRnglistsBase:
			c.rnglistsBase = f.Val
		case AttrLoclistsBase:
			c.loclistsBase = f.Val
		}
	}
	if _, err := c.decode(c.start, &e, true); err != nil {
		return nil, err
	}
	for i := range e.Fields {
		f := &e.Fields[i]
		switch f.Attr {
		case AttrLowPC:
			if f.Class == ClassAddress {
				c.lowPC = f.Val
			}
		case AttrLanguage:
			c.lang = f.Val
		case AttrProducer:
			c.producer, _ = d.String(f)
		case AttrName:
			c.name, _ = d.String(f)
		case AttrCompDir:
			c.compDir, _ = d.String(f)
			c.hasCompDir = true
		case AttrStmtList:
			c.stmtList, c.hasStmtList = f.Val, true
		}
	}
	return c, nil
}

func (c *unitCtx) errAt(pos int, format string, args ...any) error {
	return errorf(c.u.Section, uint64(pos), format, args...)
}

// decode decodes the DIE at sec[pos:] into e and returns the position after
// it. With resolve false, indexed forms keep their raw index.
func (c *unitCtx) decode(pos int, e *Entry, resolve bool) (int, error) {
	data := c.sec
	end := c.end
	e.Offset = c.base + Offset(pos)
	start := pos
	// abbreviation code, fast path for one byte
	var code uint64
	if pos < end && data[pos] < 0x80 {
		code = uint64(data[pos])
		pos++
	} else {
		b := reader{data: data, pos: pos, end: end}
		code = b.uleb()
		if b.bad {
			return pos, c.errAt(start, "truncated DIE")
		}
		pos = b.pos
	}
	if code == 0 {
		e.Tag, e.Children, e.Fields, e.ab = 0, false, e.Fields[:0], nil
		return pos, nil
	}
	ab := c.abbrevs.lookup(code)
	if ab == nil {
		return pos, c.errAt(start, "unknown abbreviation code %d", code)
	}
	same := e.ab == ab && len(e.Fields) == len(ab.tmpl)
	e.Tag, e.Children, e.ab = ab.tag, ab.children, ab
	n := len(ab.tmpl)
	if cap(e.Fields) < n {
		// Room for the attributes of most DIEs at once, so that an
		// Entry is allocated for once or twice per unit, not for every
		// larger abbreviation met.
		e.Fields = make([]Field, n, max(n+8, 24))
	}
	fs := e.Fields[:n]
	if len(e.Fields) != n {
		e.Fields = fs
	}
	native := c.native
	p := unsafe.Pointer(unsafe.SliceData(data))
	unitOff := uint64(c.u.Offset)
	unitSize := uint64(c.u.End - c.u.Offset)
	tmpl, lay := ab.tmpl[:len(fs)], ab.lay[:len(fs)]
	dataLen := len(data)
	var form Form
	if fx := int(ab.fixed); fx >= 0 && end-pos >= fx && dataLen-pos >= fx+8 {
		// Every attribute has a fixed size: independent masked loads at
		// precomputed offsets, one bounds check for the whole DIE.
		q := unsafe.Add(p, pos)
		var bad uint64
		if same {
			bad = fillSame(fs, tmpl, lay, q, unitOff, unitSize)
		} else {
			bad = fillCopy(fs, tmpl, lay, q, unitOff, unitSize)
		}
		if bad != 0 {
			for i := range fs {
				if lay[i].ref != 0 && fs[i].Val-unitOff >= unitSize {
					fs[i].Val -= unitOff
					f := &fs[i]
					return pos, c.errAt(start, "%v: reference 0x%x beyond end of unit", f.Attr, f.Val)
				}
			}
		}
		pos += fx
		c.touchName(e, ab)
		if ab.fixup && resolve {
			if err := c.resolve(start, fs); err != nil {
				return pos, err
			}
		}
		return pos, nil
	}
	for i := range fs {
		f := &fs[i]
		*f = tmpl[i]
		// Fast path: a fixed-size encoding is one masked 8-byte load
		// (which needs 8 readable bytes, not just size).
		if l := lay[i]; l.size != varSize && dataLen-pos >= 8 && end-pos >= int(l.size) {
			v := *(*uint64)(unsafe.Add(p, pos)) & sizeMask[l.size]
			pos += int(l.size)
			f.Val += v
			if l.ref != 0 {
				if v >= unitSize {
					f.Val = v
					goto badref
				}
				f.Val += unitOff
			}
			continue
		}
		form = f.Form
	again:
		// The explicit length checks against end (<= len(data)) make the
		// unaligned loads through p safe.
		switch form {
		case FormData1, FormFlag, FormStrx1, FormAddrx1:
			if pos >= end {
				goto short
			}
			f.Val = uint64(*(*uint8)(unsafe.Add(p, pos)))
			pos++
		case FormData2, FormStrx2, FormAddrx2:
			if end-pos < 2 {
				goto short
			}
			v := *(*uint16)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes16(v)
			}
			f.Val = uint64(v)
			pos += 2
		case FormStrx3, FormAddrx3:
			if end-pos < 3 {
				goto short
			}
			if c.big {
				f.Val = uint64(data[pos])<<16 | uint64(data[pos+1])<<8 | uint64(data[pos+2])
			} else {
				f.Val = uint64(data[pos+2])<<16 | uint64(data[pos+1])<<8 | uint64(data[pos])
			}
			pos += 3
		case FormData4, FormStrx4, FormAddrx4, FormRefSup4:
			if end-pos < 4 {
				goto short
			}
			v := *(*uint32)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes32(v)
			}
			f.Val = uint64(v)
			pos += 4
		case FormData8, FormRefSig8, FormRefSup8:
			if end-pos < 8 {
				goto short
			}
			v := *(*uint64)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes64(v)
			}
			f.Val = v
			pos += 8
		case FormRef4:
			if end-pos < 4 {
				goto short
			}
			v := *(*uint32)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes32(v)
			}
			pos += 4
			f.Val = uint64(v)
			if f.Val >= unitSize {
				goto badref
			}
			f.Val += unitOff
		case FormRef1:
			if pos >= end {
				goto short
			}
			f.Val = uint64(*(*uint8)(unsafe.Add(p, pos)))
			pos++
			if f.Val >= unitSize {
				goto badref
			}
			f.Val += unitOff
		case FormRef2:
			if end-pos < 2 {
				goto short
			}
			v := *(*uint16)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes16(v)
			}
			pos += 2
			f.Val = uint64(v)
			if f.Val >= unitSize {
				goto badref
			}
			f.Val += unitOff
		case FormRef8:
			if end-pos < 8 {
				goto short
			}
			v := *(*uint64)(unsafe.Add(p, pos))
			if !native {
				v = bits.ReverseBytes64(v)
			}
			pos += 8
			f.Val = v
			if f.Val >= unitSize {
				goto badref
			}
			f.Val += unitOff
		case FormRefUdata:
			b := reader{data: data, pos: pos, end: end}
			f.Val = b.uleb()
			if b.bad {
				goto short
			}
			pos = b.pos
			if f.Val >= unitSize {
				goto badref
			}
			f.Val += unitOff
		case FormStrp, FormLineStrp, FormSecOffset, FormGNURefAlt, FormGNUStrpAlt, FormStrpSup:
			if c.off8 {
				if end-pos < 8 {
					goto short
				}
				v := *(*uint64)(unsafe.Add(p, pos))
				if !native {
					v = bits.ReverseBytes64(v)
				}
				f.Val = v
				pos += 8
			} else {
				if end-pos < 4 {
					goto short
				}
				v := *(*uint32)(unsafe.Add(p, pos))
				if !native {
					v = bits.ReverseBytes32(v)
				}
				f.Val = uint64(v)
				pos += 4
			}
		case FormUdata, FormStrx, FormAddrx, FormLoclistx, FormRnglistx, FormGNUAddrIndex, FormGNUStrIndex:
			if pos < end && data[pos] < 0x80 {
				f.Val = uint64(data[pos])
				pos++
			} else {
				b := reader{data: data, pos: pos, end: end}
				f.Val = b.uleb()
				if b.bad {
					goto short
				}
				pos = b.pos
			}
		case FormSdata:
			if pos < end && data[pos] < 0x40 {
				f.Val = uint64(data[pos])
				pos++
			} else {
				b := reader{data: data, pos: pos, end: end}
				f.Val = uint64(b.sleb())
				if b.bad {
					goto short
				}
				pos = b.pos
			}
		case FormFlagPresent:
			f.Val = 1
		case FormImplicitConst:
			// Val came with the template
		case FormAddr:
			if end-pos < c.asize {
				goto short
			}
			switch c.asize {
			case 8:
				v := *(*uint64)(unsafe.Add(p, pos))
				if !native {
					v = bits.ReverseBytes64(v)
				}
				f.Val = v
			default:
				b := reader{data: data, pos: pos, end: end, big: c.big}
				f.Val = b.uintN(c.asize)
			}
			pos += c.asize
		case FormString:
			k := strlen(data[:end], pos)
			if k < 0 {
				goto short
			}
			f.Val, f.Len = uint64(c.base)+uint64(pos), uint32(k)
			pos += k + 1
		case FormExprloc, FormBlock, FormBlock1, FormBlock2, FormBlock4:
			b := reader{data: data, pos: pos, end: end, big: c.big}
			var n uint64
			switch form {
			case FormBlock1:
				n = uint64(b.u8())
			case FormBlock2:
				n = uint64(b.u16())
			case FormBlock4:
				n = uint64(b.u32())
			default:
				n = b.uleb()
			}
			if b.bad || n > uint64(end-b.pos) || n > 0xffffffff {
				goto short
			}
			f.Val, f.Len = uint64(c.base)+uint64(b.pos), uint32(n)
			pos = b.pos + int(n)
		case FormData16:
			if end-pos < 16 {
				goto short
			}
			f.Val, f.Len = uint64(c.base)+uint64(pos), 16
			pos += 16
		case FormRefAddr:
			n := c.u.OffsetSize
			if c.u.Version == 2 {
				n = c.asize
			}
			if end-pos < n {
				goto short
			}
			b := reader{data: data, pos: pos, end: end, big: c.big}
			f.Val = b.uintN(n)
			pos = b.pos
		case FormIndirect:
			b := reader{data: data, pos: pos, end: end}
			v := b.uleb()
			if b.bad {
				goto short
			}
			pos = b.pos
			if v > 0xffff || !knownForm(Form(v)) || Form(v) == FormIndirect || Form(v) == FormImplicitConst {
				return pos, c.errAt(start, "%v: bad DW_FORM_indirect form 0x%x", f.Attr, v)
			}
			form = Form(v)
			f.Form = form
			f.Class = formClass(form, f.Attr, c.u.Version)
			goto again
		default:
			return pos, c.errAt(start, "%v: unsupported form %v", f.Attr, form)
		}
		continue
	badref:
		return pos, c.errAt(start, "%v: reference 0x%x beyond end of unit", f.Attr, f.Val)
	}
	if ab.fixup && resolve {
		if err := c.resolve(start, fs); err != nil {
			return pos, err
		}
	}
	return pos, nil
short:
	return pos, c.errAt(start, "DIE truncated at unit end (abbreviation %d, %v)", code, ab.tag)
}

// touchName starts loading the DW_FORM_strp name of the fixed-size DIE
// just decoded into e with abbreviation ab: callers read most names, and
// .debug_str is read out of order, so the first touch is a cache miss that
// is better overlapped with the work until the caller reads the name.
func (c *unitCtx) touchName(e *Entry, ab *abbrev) {
	if k := ab.strp; k >= 0 {
		if o := e.Fields[k].Val; o < uint64(len(c.str)) {
			e.sink += c.str[o]
		}
	}
}

// fillSame and fillCopy decode a DIE whose attributes all have fixed
// sizes: q points at its first attribute, lay gives each one's offset and
// size, and every value is one masked 8-byte load (the caller checks that
// the DIE plus 8 bytes lie in the section). Unit-relative references get
// the unit's offset added without a branch; the result is non-zero if one
// of them points outside the unit (unitSize or beyond), which the caller
// turns into an error. fillSame is for fs already holding this
// abbreviation's fields (the previous DIE decoded into them had it): only
// the values change. fillCopy copies the templates field by field (one
// copy(fs, tmpl) before the loop measured ~10% slower over a vmlinux walk:
// a memmove call per DIE). Both are small enough to be inlined.
func fillSame(fs, tmpl []Field, lay []fieldLay, q unsafe.Pointer, unitOff, unitSize uint64) (bad uint64) {
	tmpl, lay = tmpl[:len(fs)], lay[:len(fs)]
	for i := range fs {
		l := lay[i]
		v := *(*uint64)(unsafe.Add(q, int(l.off))) & sizeMask[l.size]
		r := uint64(l.ref)
		fs[i].Val = tmpl[i].Val + v + unitOff&-r
		_, inside := bits.Sub64(v, unitSize, 0)
		bad |= r &^ inside
	}
	return bad
}

func fillCopy(fs, tmpl []Field, lay []fieldLay, q unsafe.Pointer, unitOff, unitSize uint64) (bad uint64) {
	tmpl, lay = tmpl[:len(fs)], lay[:len(fs)]
	for i, l := range lay {
		v := *(*uint64)(unsafe.Add(q, int(l.off))) & sizeMask[l.size]
		r := uint64(l.ref)
		fs[i] = tmpl[i]
		fs[i].Val += v + unitOff&-r
		_, inside := bits.Sub64(v, unitSize, 0)
		bad |= r &^ inside
	}
	return bad
}

// resolve replaces the raw indexes of indexed forms with what they index.
func (c *unitCtx) resolve(start int, fs []Field) error {
	s := &c.d.sec
	osz := uint64(4)
	if c.off8 {
		osz = 8
	}
	for i := range fs {
		f := &fs[i]
		switch f.Form {
		case FormStrx, FormStrx1, FormStrx2, FormStrx3, FormStrx4, FormGNUStrIndex:
			v, ok := c.tableEntry(s.StrOffsets, c.strOffsetsBase, f.Val, osz)
			if !ok {
				return c.errAt(start, "%v: string index %d outside .debug_str_offsets (base 0x%x, size 0x%x)", f.Attr, f.Val, c.strOffsetsBase, len(s.StrOffsets))
			}
			f.Val = v
		case FormAddrx, FormAddrx1, FormAddrx2, FormAddrx3, FormAddrx4, FormGNUAddrIndex:
			v, ok := c.tableEntry(s.Addr, c.addrBase, f.Val, uint64(c.asize))
			if !ok {
				return c.errAt(start, "%v: address index %d outside .debug_addr (base 0x%x, size 0x%x)", f.Attr, f.Val, c.addrBase, len(s.Addr))
			}
			f.Val = v
		case FormLoclistx:
			v, ok := c.tableEntry(s.Loclists, c.loclistsBase, f.Val, osz)
			if !ok {
				return c.errAt(start, "%v: location list index %d outside .debug_loclists (base 0x%x, size 0x%x)", f.Attr, f.Val, c.loclistsBase, len(s.Loclists))
			}
			f.Val = c.loclistsBase + v
		case FormRnglistx:
			v, ok := c.tableEntry(s.Rnglists, c.rnglistsBase, f.Val, osz)
			if !ok {
				return c.errAt(start, "%v: range list index %d outside .debug_rnglists (base 0x%x, size 0x%x)", f.Attr, f.Val, c.rnglistsBase, len(s.Rnglists))
			}
			f.Val = c.rnglistsBase + v
		}
	}
	return nil
}

// tableEntry reads entry idx of size sz of the table at base in sec.
func (c *unitCtx) tableEntry(sec []byte, base, idx, sz uint64) (uint64, bool) {
	if idx > uint64(len(sec))/sz {
		return 0, false
	}
	off := base + idx*sz
	if off < base || off > uint64(len(sec)) || uint64(len(sec))-off < sz {
		return 0, false
	}
	b := reader{data: sec, pos: int(off), end: len(sec), big: c.big}
	return b.uintN(int(sz)), true
}

// String returns the string value of a ClassString or ClassStringAlt
// field. The string is a view of the mapped section (no copy, made with
// unsafe.String): it is valid until the Data is closed and must not be
// retained past that.
func (d *Data) String(f *Field) (string, error) {
	// DW_FORM_strp, the common case, without the dispatch of string.
	if str := d.sec.Str; f.Form == FormStrp && f.Val < uint64(len(str)) {
		p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(str)), f.Val)
		if uint64(len(str))-f.Val >= 8 {
			// a NUL in the first eight bytes (most names), found inline
			const lo, hi = 0x0101010101010101, 0x8080808080808080
			v := *(*uint64)(p)
			if hostBigEndian {
				v = bits.ReverseBytes64(v)
			}
			if z := (v - lo) &^ v & hi; z != 0 {
				return unsafe.String((*byte)(p), bits.TrailingZeros64(z)/8), nil
			}
		}
		if n := strlen(str, int(f.Val)); n >= 0 {
			return unsafe.String((*byte)(p), n), nil
		}
	}
	return d.string(f)
}

func (d *Data) string(f *Field) (string, error) {
	var sec []byte
	var name string
	switch f.Form {
	case FormString:
		return bytesToString(d.Bytes(f)), nil
	case FormStrp, FormStrx, FormStrx1, FormStrx2, FormStrx3, FormStrx4, FormGNUStrIndex:
		sec, name = d.sec.Str, ".debug_str"
	case FormLineStrp:
		sec, name = d.sec.LineStr, ".debug_line_str"
	case FormGNUStrpAlt, FormStrpSup:
		if d.alt == nil {
			return "", errorf(".debug_str", f.Val, "%v refers to the alternate debug file %q, which was not found", f.Attr, d.altPath)
		}
		sec, name = d.alt.sec.Str, "alternate .debug_str"
	default:
		return "", errorf(".debug_info", 0, "%v: form %v is not a string", f.Attr, f.Form)
	}
	if f.Val >= uint64(len(sec)) {
		return "", errorf(name, f.Val, "string offset beyond end of section (size 0x%x)", len(sec))
	}
	off := int(f.Val)
	n := strlen(sec, off)
	if n < 0 {
		return "", errorf(name, f.Val, "unterminated string")
	}
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(sec)), off)), n), nil
}

func bytesToString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bytes returns the bytes of a block, exprloc, DW_FORM_string or data16
// field as a view of the section (nil for other fields).
func (d *Data) Bytes(f *Field) []byte {
	if !f.HasBytes() {
		return nil
	}
	sec := d.sec.Info
	off := f.Val
	if Offset(off) >= TypesBase {
		sec, off = d.sec.Types, off-uint64(TypesBase)
	}
	if off > uint64(len(sec)) || uint64(len(sec))-off < uint64(f.Len) {
		return nil
	}
	return sec[off : off+uint64(f.Len) : off+uint64(f.Len)]
}
