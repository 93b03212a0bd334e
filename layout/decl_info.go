package layout

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// printDeclInfo is what pahole -I (show_decl_info) prints before a type:
// the unit it was found in (NamedUnit's name: a compile unit's DW_AT_name,
// a BTF file's path), then the type's entry offset and where it is
// declared. From DWARF these come from the facts (encode.Options.DeclInfo
// records them); from BTF they are unknown: "<0> (null):0".
func (u *unit) printDeclInfo(b *buf, id btf.TypeID, c conf) {
	b.Tabs(c.indent)
	b.Str("/* Used at: ")
	b.Str(u.inputName)
	b.Str(" */\n")
	d := u.facts.Decl(id)
	b.Tabs(c.indent)
	b.Str("/* <")
	*b = strconv.AppendUint(*b, d.Offset, 16)
	b.Str("> ")
	if d.File != "" {
		b.Str(d.File)
	} else {
		b.Str("(null)")
	}
	b.Byte(':')
	// pahole keeps the line in 16 bits.
	b.Uint(uint64(uint16(d.Line)))
	b.Str(" */\n")
}
