package layout

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/cfmt"
	"github.com/btfkit/btfkit/internal/ctype"
)

// --compile: compilable C, as pahole 1.32's dwarves_emit.c prints it
// (internal/ctype's Emitter, shared with pfunct's -b). Before each type
// the listing prints, the types it needs are printed, each once per
// listing: a type whose kind and name were printed before, from this
// unit or an earlier one, is not printed again. The types needed are
// printed with pahole's default options (offsets in decimal, no -E...),
// the listed type itself with the listing's. A struct, union or enum
// whose name another kind of tag already took is renamed NAME__1, as
// pahole does.
//
// One difference from pahole, so that the output compiles with clang
// too: a typedef named like a compiler builtin ("__builtin_...") is not
// printed (ctype.EmitOptions.SkipBuiltinTypedefs).

// formatCompilable is pahole's class_formatter with --compile: the types
// id needs, then id with the listing's options, c.
func (l *Listing) formatCompilable(u *unit, b *buf, id btf.TypeID, c conf) {
	if l.emit == nil {
		l.emit = ctype.NewEmissions()
	}
	if l.emitUnit == nil || l.emitFor != u {
		o := ctype.EmitOptions{SkipBuiltinTypedefs: true}
		if u.opts != nil {
			o.SkipAtomicTypedefs = u.opts.SkipEmittingAtomicTypedefs
		}
		l.emitUnit, l.emitFor = l.emit.Unit(u.nm, compilePrinter{u}, o), u
	}
	if l.emitUnit.TypeDefs(b, id) {
		c.noSemicolon = true
		u.printTop(b, id, c)
		b.Byte(';')
	}
	b.Byte('\n')
}

// compilePrinter prints the types --compile emits as pahole does: with
// pahole's defaults and, as a fresh conf, no alignment information (no
// forced paddings).
type compilePrinter struct{ u *unit }

func (p compilePrinter) Emit(b *cfmt.Buf, id btf.TypeID, prefix, suffix *string) {
	c := conf{emitStats: true, noAlignmentInfo: true}
	if prefix != nil {
		c.prefix, c.hasPrefix = *prefix, true
	}
	if suffix != nil {
		c.suffix, c.hasSuffix = *suffix, true
	}
	p.u.printTop(b, id, c)
	b.Byte('\n')
}

func (p compilePrinter) Typedef(b *cfmt.Buf, id btf.TypeID) {
	p.u.printTypedef(b, p.u.spec.Type(id), defaultConf())
	b.Str(";\n")
}

func (p compilePrinter) Enum(b *cfmt.Buf, id btf.TypeID, suffix *string) {
	var c conf
	if suffix != nil {
		c.suffix, c.hasSuffix = *suffix, true
	}
	p.u.printEnum(b, p.u.spec.Type(id), c)
	b.Str(";\n")
}

func (p compilePrinter) CheckUnnaturalAlignments(id btf.TypeID) {
	if t := p.u.spec.Type(id); t.IsStruct() || t.IsUnion() {
		p.u.markUnnaturalStructs(p.u.class(id))
	}
}

func (p compilePrinter) Rename(id btf.TypeID, name string) { p.u.rename(id, name) }

// defaultConf is pahole's conf_fprintf__defaults, which the typedefs
// printed for --compile get.
func defaultConf() conf {
	return conf{nameSpacing: defaultNameSpacing, typeSpacing: defaultTypeSpacing, emitStats: true, noAlignmentInfo: true}
}
