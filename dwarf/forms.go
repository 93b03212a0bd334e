package dwarf

import "fmt"

// UsesForm reports whether the abbreviation table of unit u declares some
// attribute in form f: say DW_FORM_ref_addr, the form of references into
// other units (LTO), without reading the unit's entries.
func (d *Data) UsesForm(u *Unit, f Form) (bool, error) {
	if u.Index < 0 || u.Index >= len(d.units) || &d.units[u.Index] != u {
		return false, fmt.Errorf("dwarf: unit %d does not belong to this Data", u.Index)
	}
	c, err := d.ctx(u.Index)
	if err != nil {
		return false, err
	}
	uses := func(a *abbrev) bool {
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
	for _, a := range c.abbrevs.dense {
		if uses(a) {
			return true, nil
		}
	}
	for _, a := range c.abbrevs.sparse {
		if uses(a) {
			return true, nil
		}
	}
	return false, nil
}
