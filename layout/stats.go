package layout

import (
	"github.com/btfkit/btfkit/btf"
)

// pahole's per-input options that are not a formatter: the unit that
// defines each -C type (-u, defined_in) and stopping after the first
// input (--first_obj_only). (-T's and -m's counts are structures.go's
// definitions.)

// printDefinedIn is -u for a -C type found in u: the unit's name instead
// of the type (pahole's puts(cu->name)).
func (l *Listing) printDefinedIn(u *unit, b *buf, _ btf.TypeID) {
	b.Str(u.inputName)
	b.Byte('\n')
}

// UnitExcluded reports whether the input (compile unit) of that name is
// left out (CUExcludePrefix), as pahole's cu__filter leaves it out before
// anything is done with it.
func (l *Listing) UnitExcluded(name string) bool { return l.unitExcluded(name) }
