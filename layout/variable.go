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

// Tag appends pahole's tag__fprintf of the type id with pdwtags's conf
// (emit_stats, pahole's default spacing): a struct's holes found first
// (class__find_holes), the declaration info before it when showDeclInfo
// (the unit named unitName), then ';'.
func (p *TypePrinter) Tag(out []byte, id btf.TypeID, showDeclInfo bool, unitName string) []byte {
	b := buf(out)
	t, ok := p.u.typ(id)
	if !ok {
		return out
	}
	if t.IsStruct() {
		p.u.class(id).findHoles()
	}
	p.u.inputName = unitName
	p.u.printTop(&b, id, conf{emitStats: true, showDeclInfo: showDeclInfo})
	return b
}

// TagIndent is Tag at indent tabs (a tag inside a C++ namespace, as
// pdwtags prints it), without declaration info.
func (p *TypePrinter) TagIndent(out []byte, id btf.TypeID, indent int) []byte {
	b := buf(out)
	if t, ok := p.u.typ(id); !ok {
		return out
	} else if t.IsStruct() {
		p.u.class(id).findHoles()
	}
	// tag__fprintf hands the namespace's conf on: a union is spaced as
	// a struct there, not with a union's own default.
	p.u.printTop(&b, id, conf{emitStats: true, indent: indent, nameSpacing: defaultNameSpacing, typeSpacing: defaultTypeSpacing})
	return b
}

// SetParamAttrs gives the printer the decl tags to print before the
// parameters of its FUNC_PROTOs (BTF's DECL_TAGs, as pahole's BTF loader
// attaches them).
func (p *TypePrinter) SetParamAttrs(attrs func(proto btf.TypeID, i int) []string) {
	o := p.u.nm.Options()
	o.ParamAttrs = attrs
	p.u.nm.SetOptions(o)
}
