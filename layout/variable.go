package layout

import "github.com/btfkit/btfkit/btf"

// Variable appends pahole's type__fprintf of the type id declaring name,
// with pahole's default conf (what tag__fprintf of a variable prints
// when its caller passes no conf, as pglobal does): the type padded to
// 26 columns, then the name; a struct, union or enum without a name is
// printed in place. Type 0 (void) prints nothing, as pahole finds no
// type for it.
func (p *TypePrinter) Variable(out []byte, id btf.TypeID, name string) []byte {
	if id == 0 {
		return out
	}
	b := buf(out)
	p.u.printType(&b, id, name, true, conf{nameSpacing: defaultNameSpacing, typeSpacing: defaultTypeSpacing, emitStats: true})
	return b
}
