package dwarf

import "fmt"

// UsesForm reports whether the abbreviation table of unit u declares some
// attribute in form f: say DW_FORM_ref_addr, the form of references into
// other units (LTO), without reading the unit's entries.
//
// Every declaration of the table counts, as in pahole's walk of it
// (dwarf_getabbrev): one whose code an earlier declaration took too.
// The table's bytes are only scanned, without building the unit's
// decoding context (its parsed table and root entry, which Walk builds
// in its workers when it reads the unit): asked of every unit of a file
// before reading any (encode's merged-units check), building them made
// every unit's first page and its names in .debug_str resident, for a
// reader that may then look at one unit only (a -C lookup). A table the
// scan does not find clean is parsed in full, which reports what is
// wrong with it.
func (d *Data) UsesForm(u *Unit, f Form) (bool, error) {
	if u.Index < 0 || u.Index >= len(d.units) || &d.units[u.Index] != u {
		return false, fmt.Errorf("dwarf: unit %d does not belong to this Data", u.Index)
	}
	if uses, ok := d.scanForms(u.AbbrevOffset, f); ok {
		return uses, nil
	}
	c, err := d.ctx(u.Index)
	if err != nil {
		return false, err
	}
	for _, a := range c.abbrevs.dense {
		if a.uses(f) {
			return true, nil
		}
	}
	for _, a := range c.abbrevs.sparse {
		if a.uses(f) {
			return true, nil
		}
	}
	return false, nil
}

// uses reports whether a declares an attribute in form f.
func (a *abbrev) uses(f Form) bool {
	if a == nil {
		return false
	}
	for i := range a.tmpl {
		if a.tmpl[i].Form == f {
			return true
		}
	}
	return false
}

// formsKey is a table offset and a form UsesForm was asked about.
type formsKey struct {
	off  uint64
	form Form
}

// scanForms reports whether the abbreviation table at off declares an
// attribute in form f, reading only the declarations' bytes; ok is false
// when the table is not one parseAbbrev accepts (then UsesForm parses it
// in full and reports why), or when the tables scanned overlap so much
// that scanning them all would take quadratic time (as parseAbbrev
// bounds its own work). Answers are kept by offset: units may share a
// table.
func (d *Data) scanForms(off uint64, f Form) (uses, ok bool) {
	key := formsKey{off, f}
	d.formsMu.Lock()
	defer d.formsMu.Unlock()
	if v, seen := d.forms[key]; seen {
		return v, true
	}
	sec := d.sec.Abbrev
	if off >= uint64(len(sec)) {
		return false, false
	}
	// parseAbbrev's first pass, with parseDecl's checks: a vmlinux has
	// 5 MB of tables to scan.
	b := reader{data: sec, pos: int(off), end: len(sec)}
	for {
		code := b.uleb()
		if b.bad {
			return false, false
		}
		if code == 0 {
			break
		}
		tag := b.uleb()
		if b.bad || tag > 0xffff || b.pos >= b.end || sec[b.pos] > 1 {
			return false, false
		}
		b.pos++ // DW_CHILDREN
		_, u, clean := b.declSpecs(f)
		if b.bad || b.pos > b.end || !clean {
			return false, false
		}
		uses = uses || u
	}
	d.formsWork += int64(b.pos) - int64(off)
	if d.formsWork > 8*int64(len(sec))+1<<20 {
		return false, false
	}
	if d.forms == nil {
		d.forms = make(map[formsKey]bool)
	}
	d.forms[key] = uses
	return uses, true
}
