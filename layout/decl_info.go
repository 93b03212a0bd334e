package layout

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// printDeclInfo is what pahole -I (show_decl_info) prints before a type:
// the unit it was found in, then the type's entry offset and where it is
// declared. From DWARF these come from the facts (encode.Options.DeclInfo
// records them); from BTF the unit is the file read and the rest is
// unknown: "<0> (null):0".
func (u *unit) printDeclInfo(b *buf, id btf.TypeID, c conf) {
	name := u.inputName
	if u.dwarf() {
		name = u.facts.UnitName()
	}
	b.tabs(c.indent)
	b.str("/* Used at: ")
	b.str(name)
	b.str(" */\n")
	d, _ := u.facts.Decl(id)
	b.tabs(c.indent)
	b.str("/* <")
	*b = strconv.AppendUint(*b, d.Offset, 16)
	b.str("> ")
	if d.HasFile {
		b.str(d.File)
	} else {
		b.str("(null)")
	}
	b.byte(':')
	// pahole keeps the line in 16 bits.
	b.uint(uint64(uint16(d.Line)))
	b.str(" */\n")
}
