package layout

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// TypePrinter prints single types of one input the way pahole's type
// emission (dwarves_emit.c: type__emit, typedef and enum definitions)
// prints them for pfunct -b and --compile: the layout printer with the
// conf those callers pass. It keeps the unit's state (holes, inferred
// attributes) between calls, as pahole's cu does.
type TypePrinter struct {
	u *unit
}

// NewTypePrinter returns a printer for the types of spec; facts are the
// DWARF facts beside it (nil for BTF input).
func NewTypePrinter(spec *btf.Spec, facts *dwarffacts.Facts, o Options) *TypePrinter {
	cl := o.cachelineSize()
	if cl == 0 {
		cl = 64
	}
	return &TypePrinter{u: newUnit(spec, facts, cl)}
}

// Emit appends pahole's type__emit of id: the type printed with its
// summary (emit_stats), prefix (e.g. "typedef") before and suffix (a
// typedef's name) after a struct, union or enum, then ";\n". A nil
// prefix or suffix is pahole's NULL.
func (p *TypePrinter) Emit(out []byte, id btf.TypeID, prefix, suffix *string) []byte {
	b := buf(out)
	t, ok := p.u.typ(id)
	if !ok {
		return out
	}
	if t.IsStruct() {
		p.u.class(id).findHoles()
	}
	c := conf{emitStats: true}
	if prefix != nil {
		c.prefix, c.hasPrefix = *prefix, true
	}
	if suffix != nil {
		c.suffix, c.hasSuffix = *suffix, true
	}
	p.u.printTop(&b, id, c)
	b.Byte('\n')
	return b
}

// Typedef appends pahole's typedef__fprintf of the typedef id with its
// default conf, then ";\n".
func (p *TypePrinter) Typedef(out []byte, id btf.TypeID) []byte {
	b := buf(out)
	t, ok := p.u.typ(id)
	if !ok {
		return out
	}
	p.u.printTypedef(&b, t, conf{nameSpacing: defaultNameSpacing, typeSpacing: defaultTypeSpacing, emitStats: true})
	b.Str(";\n")
	return b
}

// Enum appends pahole's enumeration__fprintf of the enum id with an
// otherwise empty conf (suffix: a typedef's name, or nil), then ";\n".
func (p *TypePrinter) Enum(out []byte, id btf.TypeID, suffix *string) []byte {
	b := buf(out)
	t, ok := p.u.typ(id)
	if !ok {
		return out
	}
	var c conf
	if suffix != nil {
		c.suffix, c.hasSuffix = *suffix, true
	}
	p.u.printEnum(&b, t, c)
	b.Str(";\n")
	return b
}

// CheckUnnaturalAlignments is pahole's
// type__check_structs_at_unnatural_alignments for the struct or union id:
// structs it embeds at offsets their natural alignment forbids are marked
// packed.
func (p *TypePrinter) CheckUnnaturalAlignments(id btf.TypeID) {
	t, ok := p.u.typ(id)
	if !ok || !t.IsStruct() && !t.IsUnion() {
		return
	}
	p.u.markUnnaturalStructs(p.u.class(id))
}
