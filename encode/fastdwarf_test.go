package encode

import (
	"testing"

	"github.com/btfkit/btfkit/dwarf"
)

// TestFastAttrsSkipOnlyNoOps: walkUnitFast does not call fastField for
// the attributes below 0x100 that fastAttrs leaves out; for each of them,
// in every class, fastField must leave the entry as it was. And each
// attribute fastAttrs lists changes the entry in some class, so the list
// holds nothing fastField has stopped reading.
func TestFastAttrsSkipOnlyNoOps(t *testing.T) {
	for a := dwarf.Attr(0); a < dwarf.Attr(len(fastAttrs)); a++ {
		changed := false
		for c := dwarf.ClassUnknown; c <= dwarf.ClassRngList+1; c++ {
			if a == dwarf.AttrName || (a == dwarf.AttrConstValue && (c == dwarf.ClassString || c == dwarf.ClassStringAlt)) {
				changed = true // a string: read from the sections, which there are none of here
				continue
			}
			var d die
			f := dwarf.Field{Attr: a, Class: c, Form: dwarf.FormData1, Val: 1}
			if err := fastField(nil, &d, &f); err != nil {
				t.Fatalf("%v class %d: %v", a, c, err)
			}
			if d != (die{}) {
				changed = true
				if !fastAttrs[a] {
					t.Errorf("%v (class %d) is skipped by fastAttrs, but fastField reads it", a, c)
				}
			}
		}
		if fastAttrs[a] && !changed {
			t.Errorf("%v is in fastAttrs, but fastField reads it in no class", a)
		}
	}
}
