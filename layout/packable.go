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
// AnonInclude) goes by the name of the first typedef of it.
func (l *Listing) printPackable(u *unit, b *buf, id btf.TypeID) {
	c := u.class(id)
	r := c.reorganized
	if r == nil {
		return
	}
	sep := l.opts.Separator
	if sep == 0 {
		sep = '\t'
	}
	name := c.name
	if name == "" {
		name = firstTypedefName(u, id)
	}
	if name == "" {
		// pahole prints the declaration's file and line, "FILE(LINE)";
		// BTF has neither (pahole prints "(null)(0)"), and the DWARF
		// facts do not carry them, so DWARF input prints the same.
		name = "(null)(0)"
	}
	b.str(name)
	for _, n := range []uint64{uint64(c.size), uint64(r.size), uint64(c.size - r.size)} {
		b.byte(sep)
		b.uint(n)
	}
	b.byte('\n')
}

// firstTypedefName is the name of the first typedef of the type, as
// pahole's cu__find_first_typedef_of_type finds it; "" when none.
func firstTypedefName(u *unit, id btf.TypeID) string {
	for tid := btf.TypeID(1); tid < u.spec.NextID(); tid++ {
		t := u.spec.Type(tid)
		if t.Kind() == btf.KindTypedef && t.Ref() == id {
			return t.Name()
		}
	}
	return ""
}
