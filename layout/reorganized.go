package layout

import "github.com/btfkit/btfkit/btf"

// printReorganized is what pahole -R -C prints for a struct (pahole.c's
// do_reorg): the steps with -S, then the reorganized copy, printed as the
// type itself would be, and how many bytes and cache lines it saves. A
// union, enum or typedef named with -R prints nothing, as in pahole.
//
// Where pahole's result is larger than the original (its padding rule,
// see reorgPadding), the original is printed instead, with nothing saved:
// a reorganization never makes a struct larger.
func (l *Listing) printReorganized(u *unit, b *buf, id btf.TypeID) {
	orig := u.class(id)
	steps := reorgQuiet
	if l.opts.ShowReorgSteps {
		steps = reorgLayouts
	}
	c := u.reorganized(orig, steps, b)
	savings := int32(orig.size - c.size)
	if savings != 0 && steps > reorgQuiet {
		b.Byte('\n')
		if steps == reorgLayouts {
			b.Str("/* Final reorganized struct: */\n")
		}
	}
	u.printTopClass(b, c, l.topConf())
	if savings == 0 {
		b.Byte('\n')
		return
	}
	cl := uint64(u.cacheline)
	lines := (orig.tagSize()+cl-1)/cl - (c.tagSize()+cl-1)/cl
	b.Str("   /* saved ")
	b.Int(int64(savings))
	b.Str(" byte" + plural(int64(savings)))
	if lines != 0 {
		b.Str(" and ")
		b.Uint(lines)
		b.Str(" cacheline")
		if lines != 1 {
			b.Byte('s')
		}
	}
	b.Str("! */\n")
}

// reorganized returns the reorganized copy of a struct that -R prints:
// pahole's, or a copy of the original where pahole's is larger (pahole
// 1.31 prints the larger struct and "saved -N bytes").
func (u *unit) reorganized(orig *class, steps reorgStep, b *buf) *class {
	orig.findHoles()
	c := cloneClass(orig)
	u.reorganize(c, steps, b)
	if c.size > orig.size {
		return cloneClass(orig)
	}
	return c
}

// printTopClass is pahole's tag__fprintf for a struct that is no type of
// the unit (a reorganized copy): printTop and printTag for a class.
func (u *unit) printTopClass(b *buf, cl *class, c conf) {
	if c.nameSpacing == 0 {
		c.nameSpacing = defaultNameSpacing
		if c.expandTypes {
			c.nameSpacing = 55
		}
	}
	if c.typeSpacing == 0 {
		c.typeSpacing = defaultTypeSpacing
	}
	b.Tabs(c.indent)
	u.printClass(b, cl, c)
	if !c.noSemicolon {
		b.Byte(';')
	}
}

// printReorgStep is the struct pahole -S prints after each move
// (class__fprintf): with the printer's defaults, whatever the command
// line asked for (no --hex, for one), but the cache line size. The
// defaults do not say the input has alignment information, so there are
// no "Force padding" members even from DWARF.
func (u *unit) printReorgStep(b *buf, c *class) {
	u.printClass(b, c, conf{emitStats: true, nameSpacing: defaultNameSpacing,
		typeSpacing: defaultTypeSpacing, suppressForcePaddings: true})
	b.Byte('\n')
}
