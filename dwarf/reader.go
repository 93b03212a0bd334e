package dwarf

import (
	"fmt"
	"unsafe"
)

// UnitReader reads the DIEs of one unit at a time, in order, into
// caller-owned Entries. It allocates nothing per DIE. A UnitReader is not
// safe for concurrent use; give each goroutine its own (NewReader) and
// point it at units with Reset.
type UnitReader struct {
	d     *Data
	c     *unitCtx
	pos   int // next DIE, in c.sec
	depth int // depth of the next DIE
	// last entry returned: had children, and its DW_AT_sibling (0 if none)
	lastChildren bool
	lastSibling  Offset
	err          error
	scratch      Entry
}

// NewReader returns a reader not yet positioned on any unit.
func (d *Data) NewReader() *UnitReader { return &UnitReader{d: d} }

// Data returns the Data the reader reads.
func (r *UnitReader) Data() *Data { return r.d }

// Reset positions the reader on the root DIE of unit u (a unit of
// r.Data().Units()).
func (r *UnitReader) Reset(u *Unit) error {
	if u.Index < 0 || u.Index >= len(r.d.units) || &r.d.units[u.Index] != u {
		return fmt.Errorf("dwarf: unit %d does not belong to this Data", u.Index)
	}
	c, err := r.d.ctx(u.Index)
	if err != nil {
		r.c, r.err = nil, err
		return err
	}
	r.c = c
	r.pos = c.start
	r.depth = 0
	r.lastChildren = false
	r.err = nil
	return nil
}

// Unit returns the unit the reader is on.
func (r *UnitReader) Unit() *Unit {
	if r.c == nil {
		return nil
	}
	return r.c.u
}

// Language returns the unit's DW_AT_language (0 if absent).
func (r *UnitReader) Language() uint64 { return r.c.lang }

// Producer returns the unit's DW_AT_producer ("" if absent).
func (r *UnitReader) Producer() string { return r.c.producer }

// Name returns the unit's DW_AT_name ("" if absent).
func (r *UnitReader) Name() string { return r.c.name }

// CompDir returns the unit's DW_AT_comp_dir ("" if absent).
func (r *UnitReader) CompDir() string { return r.c.compDir }

// BaseAddress returns the unit's base address (its DW_AT_low_pc), which
// location and range lists are relative to.
func (r *UnitReader) BaseAddress() uint64 { return r.c.lowPC }

// Next decodes the next DIE of the unit into e. It returns false, nil at
// the end of the unit. Null entries (Tag 0) are returned too: they close
// the children of the nearest open entry, and e.Depth tracks the nesting.
func (r *UnitReader) Next(e *Entry) (bool, error) {
	c := r.c
	if r.err != nil || c == nil {
		return false, r.err
	}
	pos, end, data := r.pos, c.end, c.sec
	if pos >= end {
		return false, nil
	}
	// The common cases are decoded here rather than by decode, saving a
	// call and a second pass over e per DIE (~5% of a vmlinux walk): a
	// null entry, and a DIE whose one-byte code names an abbreviation
	// with fixed-size attributes and nothing to resolve. decode does the
	// rest and reports every error.
	code := uint64(data[pos])
	if code == 0 {
		e.Offset = c.base + Offset(pos)
		e.Tag, e.Children, e.Fields, e.ab = 0, false, e.Fields[:0], nil
		r.returned(e, pos+1)
		return true, nil
	}
	if dense := c.abbrevs.dense; code < 0x80 && code-1 < uint64(len(dense)) {
		ab := dense[code-1]
		fx, n := int(ab.fixed), len(ab.tmpl)
		if fx >= 0 && !ab.fixup && end-pos-1 >= fx && len(data)-pos-1 >= fx+8 && cap(e.Fields) >= n {
			same := e.ab == ab && len(e.Fields) == n
			fs := e.Fields[:n]
			q := unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), pos+1)
			unitOff, unitSize := uint64(c.u.Offset), uint64(c.u.End-c.u.Offset)
			var bad uint64
			if same {
				bad = fillSame(fs, ab.tmpl, ab.lay, q, unitOff, unitSize)
			} else {
				bad = fillCopy(fs, ab.tmpl, ab.lay, q, unitOff, unitSize)
			}
			if bad == 0 {
				e.Offset = c.base + Offset(pos)
				e.Tag, e.Children, e.ab, e.Fields = ab.tag, ab.children, ab, fs
				c.touchName(e, ab)
				r.returned(e, pos+1+fx)
				return true, nil
			}
			e.ab = nil // fs holds a mix: decode starts afresh
		}
	}
	next, err := c.decode(pos, e, true)
	if err != nil {
		r.err = err
		return false, err
	}
	r.returned(e, next)
	return true, nil
}

// returned moves the reader past e, which ends at next, and keeps the
// nesting: e gets the depth of its siblings (a null entry the depth of the
// siblings it ends, as readelf prints it), and an entry with children
// opens a level, remembering its DW_AT_sibling for SkipChildren.
func (r *UnitReader) returned(e *Entry, next int) {
	r.pos = next
	e.Depth = r.depth
	r.lastChildren, r.lastSibling = e.Children, 0
	if e.Tag == 0 {
		if r.depth > 0 {
			r.depth--
		}
	} else if e.Children {
		r.depth++
		if a := e.ab; a != nil && a.sibling >= 0 {
			r.lastSibling = Offset(e.Fields[a.sibling].Val)
		}
	}
}

// SkipChildren skips the children of the entry Next last returned, so that
// the next call to Next returns its next sibling (or the null entry ending
// its parent's children). It uses DW_AT_sibling when present and sane.
func (r *UnitReader) SkipChildren() error {
	if r.err != nil {
		return r.err
	}
	if !r.lastChildren || r.c == nil {
		return nil
	}
	r.lastChildren = false
	c := r.c
	if s := r.lastSibling; s != 0 && s > c.base+Offset(r.pos) && s <= c.base+Offset(c.end) {
		r.pos = int(s - c.base)
		r.depth--
		return nil
	}
	target := r.depth - 1
	e := &r.scratch
	for r.depth > target {
		if r.pos >= c.end {
			return nil
		}
		next, err := c.decode(r.pos, e, false)
		if err != nil {
			r.err = err
			return err
		}
		r.pos = next
		if e.Tag == 0 {
			r.depth--
		} else if e.Children {
			r.depth++
		}
	}
	return nil
}

// Seek positions the reader so that Next decodes the DIE at global offset
// off, which must lie in the reader's current unit. Depth counting restarts
// at 0 from there.
func (r *UnitReader) Seek(off Offset) error {
	if r.c == nil {
		return fmt.Errorf("dwarf: Seek on a reader with no unit")
	}
	c := r.c
	if off < c.base+Offset(c.start) || off >= c.base+Offset(c.end) {
		return errorf(c.u.Section, c.u.secOff(off), "seek outside unit at 0x%x", c.u.secOff(c.u.Offset))
	}
	r.pos = int(off - c.base)
	r.depth = 0
	r.lastChildren = false
	r.err = nil
	return nil
}

// Offset returns the global offset of the DIE the next Next decodes.
func (r *UnitReader) Offset() Offset {
	if r.c == nil {
		return 0
	}
	return r.c.base + Offset(r.pos)
}

// EntryAt decodes the DIE at global offset off, in any unit, into e
// without moving the reader. Use it to follow references (DW_AT_type,
// DW_AT_abstract_origin, DW_AT_specification), including DW_FORM_ref_addr
// into other units. e.Depth is 0.
func (r *UnitReader) EntryAt(off Offset, e *Entry) error {
	return r.d.EntryAt(off, e)
}

// EntryAt decodes the DIE at global offset off into e. It is safe for
// concurrent use with distinct Entries.
func (d *Data) EntryAt(off Offset, e *Entry) error {
	u := d.UnitAt(off)
	if u == nil {
		sec := ".debug_info"
		if off >= TypesBase {
			sec, off = ".debug_types", off-TypesBase
		}
		return errorf(sec, uint64(off), "no unit contains this DIE offset")
	}
	c, err := d.ctx(u.Index)
	if err != nil {
		return err
	}
	if off < c.base+Offset(c.start) {
		return errorf(u.Section, u.secOff(off), "DIE offset inside a unit header")
	}
	_, err = c.decode(int(off-c.base), e, true)
	e.Depth = 0
	return err
}

// AltEntryAt decodes the DIE at offset off of the alternate (dwz) file,
// the target of a ClassReferenceAlt field.
func (d *Data) AltEntryAt(off uint64, e *Entry) error {
	if d.alt == nil {
		return errorf(".debug_info", off, "reference into the alternate debug file %q, which was not found", d.altPath)
	}
	return d.alt.EntryAt(Offset(off), e)
}
