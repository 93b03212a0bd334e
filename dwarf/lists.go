package dwarf

import "fmt"

// LocEntry is one entry of a location list: the expression Expr gives the
// location for addresses in [Low, High), or everywhere not otherwise
// covered when Default is set (DW_LLE_default_location).
type LocEntry struct {
	Low, High uint64
	Default   bool
	Expr      []byte
}

// LocList calls fn for each entry of the location list that field f (of a
// DIE of the reader's unit, class ClassLocList or ClassLocListPtr) refers
// to: .debug_loclists for DWARF 5 units, .debug_loc before. Addresses are
// absolute: offsets are applied to the unit's base address and base
// address entries, and address indexes are looked up in .debug_addr.
// Expressions are views of the section.
func (r *UnitReader) LocList(f *Field, fn func(LocEntry) error) error {
	c := r.c
	if c == nil {
		return fmt.Errorf("dwarf: LocList on a reader with no unit")
	}
	if f.Class != ClassLocList && f.Class != ClassLocListPtr {
		return errorf(c.u.Section, 0, "%v: class %v is not a location list", f.Attr, f.Class)
	}
	if c.u.Version >= 5 {
		return c.rleList(c.d.sec.Loclists, ".debug_loclists", f.Val, true, fn)
	}
	return c.pairList(c.d.sec.Loc, ".debug_loc", f.Val, true, fn)
}

// Ranges calls fn for each address range [low, high) of the range list
// field f refers to (DW_AT_ranges: class ClassRngList or
// ClassRangeListPtr): .debug_rnglists for DWARF 5 units, .debug_ranges
// before.
func (r *UnitReader) Ranges(f *Field, fn func(low, high uint64) error) error {
	c := r.c
	if c == nil {
		return fmt.Errorf("dwarf: Ranges on a reader with no unit")
	}
	if f.Class != ClassRngList && f.Class != ClassRangeListPtr && f.Class != ClassRngListsPtr {
		return errorf(c.u.Section, 0, "%v: class %v is not a range list", f.Attr, f.Class)
	}
	g := func(e LocEntry) error { return fn(e.Low, e.High) }
	if c.u.Version >= 5 {
		return c.rleList(c.d.sec.Rnglists, ".debug_rnglists", f.Val, false, g)
	}
	return c.pairList(c.d.sec.Ranges, ".debug_ranges", f.Val, false, g)
}

// Addr returns the address at index idx of the unit's part of
// .debug_addr (counted from its DW_AT_addr_base), what DW_OP_addrx and
// DW_OP_constx in an expression refer to; false when there is no such
// entry. (Attributes of the forms DW_FORM_addrx* are looked up already.)
func (r *UnitReader) Addr(idx uint64) (uint64, bool) {
	if r.c == nil {
		return 0, false
	}
	return r.c.addrx(idx)
}

func (c *unitCtx) addrx(idx uint64) (uint64, bool) {
	return c.tableEntry(c.d.sec.Addr, c.addrBase, idx, uint64(c.asize))
}

// rleList decodes a DWARF 5 location list (loc) or range list (!loc).
// The entry kinds have the same numbers in both, except that location
// lists have DW_LLE_default_location (5) where range lists have
// DW_RLE_base_address (5), and so on shifted by one from 5 up.
func (c *unitCtx) rleList(sec []byte, name string, off uint64, loc bool, fn func(LocEntry) error) error {
	if off >= uint64(len(sec)) {
		return errorf(name, off, "list offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec), big: c.big}
	base := c.lowPC
	for {
		at := b.pos
		kind := b.u8()
		if b.bad {
			return errorf(name, uint64(at), "list not terminated")
		}
		if !loc && kind >= 5 {
			// range list kinds 5, 6, 7 are location list kinds 6, 7, 8
			kind++
		}
		var e LocEntry
		expr := loc
		switch kind {
		case 0: // end_of_list
			return nil
		case 1: // base_addressx
			a, ok := c.addrx(b.uleb())
			if !ok && !b.bad {
				return errorf(name, uint64(at), "address index outside .debug_addr")
			}
			base = a
			expr = false
			if b.bad {
				return errorf(name, uint64(at), "truncated list entry")
			}
			continue
		case 2: // startx_endx
			i1, i2 := b.uleb(), b.uleb()
			lo, ok1 := c.addrx(i1)
			hi, ok2 := c.addrx(i2)
			if !b.bad && !(ok1 && ok2) {
				return errorf(name, uint64(at), "address index outside .debug_addr")
			}
			e.Low, e.High = lo, hi
		case 3: // startx_length
			i1 := b.uleb()
			n := b.uleb()
			lo, ok := c.addrx(i1)
			if !b.bad && !ok {
				return errorf(name, uint64(at), "address index outside .debug_addr")
			}
			e.Low, e.High = lo, lo+n
		case 4: // offset_pair
			lo, hi := b.uleb(), b.uleb()
			e.Low, e.High = base+lo, base+hi
		case 5: // default_location (loclists only)
			e.Default = true
		case 6: // base_address
			base = b.uintN(c.asize)
			if b.bad {
				return errorf(name, uint64(at), "truncated list entry")
			}
			continue
		case 7: // start_end
			e.Low = b.uintN(c.asize)
			e.High = b.uintN(c.asize)
		case 8: // start_length
			e.Low = b.uintN(c.asize)
			e.High = e.Low + b.uleb()
		case 9: // DW_LLE_GNU_view_pair: location views, no expression
			if !loc {
				return errorf(name, uint64(at), "unknown range list entry kind %d", kind-1)
			}
			b.uleb()
			b.uleb()
			if b.bad {
				return errorf(name, uint64(at), "truncated list entry")
			}
			continue
		default:
			if !loc {
				kind--
			}
			return errorf(name, uint64(at), "unknown list entry kind %d", kind)
		}
		if expr {
			n := b.uleb()
			e.Expr = b.bytes(n)
		}
		if b.bad {
			return errorf(name, uint64(at), "truncated list entry")
		}
		if err := fn(e); err != nil {
			return err
		}
	}
}

// pairList decodes a DWARF 2-4 .debug_loc (loc) or .debug_ranges list.
func (c *unitCtx) pairList(sec []byte, name string, off uint64, loc bool, fn func(LocEntry) error) error {
	if off >= uint64(len(sec)) {
		return errorf(name, off, "list offset beyond end of section (size 0x%x)", len(sec))
	}
	b := reader{data: sec, pos: int(off), end: len(sec), big: c.big}
	base := c.lowPC
	maxAddr := ^uint64(0) >> (64 - 8*uint(c.asize))
	for {
		at := b.pos
		lo := b.uintN(c.asize)
		hi := b.uintN(c.asize)
		if b.bad {
			return errorf(name, uint64(at), "list not terminated")
		}
		if lo == 0 && hi == 0 {
			return nil
		}
		if lo == maxAddr {
			base = hi
			continue
		}
		e := LocEntry{Low: base + lo, High: base + hi}
		if loc {
			n := b.u16()
			e.Expr = b.bytes(uint64(n))
			if b.bad {
				return errorf(name, uint64(at), "truncated location list entry")
			}
		}
		if err := fn(e); err != nil {
			return err
		}
	}
}
