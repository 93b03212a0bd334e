package layout

import "github.com/btfkit/btfkit/btf"

// packable is pahole's class__packable (--packable): a struct with holes
// or bit holes whose reorganized copy is smaller. The copy is kept for
// printPackable, as pahole keeps it in class->priv.
func (u *unit) packable(c *class) bool {
	if c.nrHoles == 0 && c.nrBitHoles == 0 {
		return false
	}
	r := cloneClass(c)
	u.reorganize(r, reorgQuiet, nil)
	if c.size <= r.size {
		return false
	}
	c.reorganized = r
	return true
}

// printPackable is pahole's print_packable_info: the struct's name, its
// size, its reorganized size and the bytes saved, separated by the -t
// separator (a tab by default). An anonymous struct (listed with
// AnonInclude) goes by the name of the first typedef of it, or else by
// where it is declared.
func (l *Listing) printPackable(u *unit, b *buf, id btf.TypeID) {
	c := u.class(id)
	r := c.reorganized
	if r == nil {
		return
	}
	sep := l.opts.separator()
	name := c.name
	if name == "" {
		name = u.firstTypedefName(id)
	}
	if name != "" {
		b.Str(name)
	} else {
		// Where it is declared: "FILE(LINE)", from DWARF facts made
		// with encode.Options.DeclInfo; BTF has neither, and pahole
		// prints NULL and 0 as "(null)(0)".
		d := u.facts.Decl(id)
		b.Str(cname(d.File, d.File != ""))
		b.Byte('(')
		b.Uint(uint64(d.Line))
		b.Byte(')')
	}
	for _, n := range []uint64{uint64(c.size), uint64(r.size), uint64(c.size - r.size)} {
		b.Byte(sep)
		b.Uint(n)
	}
	b.Byte('\n')
}
