package pfunct

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
)

// C buffer sizes pahole spells names into: a name is cut to one byte less.
const (
	nameBuf    = 128  // ftype__fprintf's and ftype__fprintf_parms's buffers
	ptrNameBuf = 1024 // tag__ptr_name's buffer for the pointee
	varNameBuf = 512  // function__tag_fprintf's buffer for a variable's type
)

// namer spells types the way pahole's tag__name and ftype__fprintf do,
// over one unit's Spec, with pfunct's conf (--no_parm_names).
type namer struct {
	u           *unit
	noParmNames bool
	classes     bool // a C++ unit (DW_LANG_C_plus_plus): structs are "class"
	depth       int
}

// maxDepth bounds how deep naming follows types into types, so that a
// malformed input whose types contain themselves ends there.
const maxDepth = 512

// typ is pahole's cu__type: the types table holds types only (not FUNC,
// VAR, DATASEC, DECL_TAG); 0 is void.
func (n *namer) typ(id btf.TypeID) (btf.Type, bool) {
	s := n.u.spec
	if s == nil || id == 0 || !s.Has(id) {
		return btf.Type{}, false
	}
	t := s.Type(id)
	switch t.Kind() {
	case btf.KindFunc, btf.KindVar, btf.KindDatasec, btf.KindDeclTag, btf.KindUnknown:
		return btf.Type{}, false
	}
	return t, true
}

// appendTypeName appends pahole's tag__name of a type ID as it would be
// written into a buffer of size bytes (cut to size-1 bytes).
func (n *namer) appendTypeName(b *buf, id btf.TypeID, size int) {
	t, ok := n.typ(id)
	if !ok {
		b.Cut(len(*b), "void", size)
		return
	}
	n.appendName(b, t, size)
}

// appendName appends pahole's __tag__name of t, cut to size-1 bytes as
// snprintf into a buffer of size bytes cuts it.
func (n *namer) appendName(b *buf, t btf.Type, size int) {
	start := len(*b)
	defer b.Truncate(start, size)
	if n.depth >= maxDepth {
		b.Str("<ERROR: type loop>")
		return
	}
	n.depth++
	defer func() { n.depth-- }()
	switch k := t.Kind(); {
	case k == btf.KindInt || k == btf.KindFloat:
		n.appendBaseName(b, t)
	case k == btf.KindPtr:
		n.appendPtrName(b, t)
	case btf.IsQualifier(k):
		switch k {
		case btf.KindConst:
			b.Str("const ")
		case btf.KindVolatile:
			if n.u.facts.Atomic(t.ID) {
				b.Str("_Atomic ")
			} else {
				b.Str("volatile ")
			}
		}
		if t.Ref() == 0 {
			b.Str("void")
		} else if it, ok := n.typ(t.Ref()); ok {
			n.appendName(b, it, nameBuf)
		} else {
			(*b) = (*b)[:start]
			b.Str(notFound(t.Ref()))
			return
		}
		if k == btf.KindRestrict {
			b.Str(" restrict")
		}
		if !n.noParmNames {
			b.Byte(' ')
		}
	case k == btf.KindArray:
		if et, ok := n.typ(t.Array().Elem); ok {
			n.appendName(b, et, size)
		} else {
			b.Str(notFound(t.Array().Elem))
		}
	case k == btf.KindTypeTag:
		if t.Ref() == 0 {
			b.Str("void")
		} else if it, ok := n.typ(t.Ref()); ok {
			n.appendName(b, it, size)
		} else {
			b.Str(notFound(t.Ref()))
		}
	case k == btf.KindFuncProto:
		n.ftype(b, t.Ref(), protoSrc(t), "", false, false, true)
	default:
		b.Str(n.prefixOf(t))
		b.Str(t.Name())
	}
}

// notFound is pahole's tag__id_not_found_snprintf.
func notFound(id btf.TypeID) string {
	return "<ERROR(__tag__name:" + "0): 0x" + strconv.FormatUint(uint64(id), 16) + " not found!>"
}

// appendBaseName is pahole's base_type__name: from DWARF the name as
// written; from BTF a float gets "single " before its name. (pahole would
// put "bool " before a BTF boolean's name too, but its BTF loader keeps
// BTF_INT_BOOL, 4, in a one-bit field, which keeps 0.)
func (n *namer) appendBaseName(b *buf, t btf.Type) {
	if t.NameOff() == 0 {
		b.Str("nameless base type!")
		return
	}
	if n.u.btf && t.Kind() == btf.KindFloat {
		b.Str("single ")
	}
	b.Str(t.Name())
}

// prefixOf is pahole's tag__prefix.
func (n *namer) prefixOf(t btf.Type) string {
	switch {
	case t.IsEnum():
		return "enum "
	case t.IsStruct():
		if n.classes && t.Kind() == btf.KindStruct {
			return "class "
		}
		return "struct "
	case t.IsUnion():
		return "union "
	}
	return ""
}

// appendPtrName is pahole's tag__ptr_name: the pointee's name, a space,
// "const " for a const pointer, and "*".
func (n *namer) appendPtrName(b *buf, t btf.Type) {
	ref := t.Ref()
	if ref == 0 {
		b.Str("void *")
		return
	}
	pt, ok := n.typ(ref)
	if !ok {
		b.Str(notFound(ref))
		b.Str(" *")
		return
	}
	constPtr := false
	if pt.Kind() == btf.KindConst {
		if nt, ok := n.typ(pt.Ref()); ok && nt.Kind() == btf.KindPtr {
			constPtr = true
			pt = nt
		}
	}
	n.appendName(b, pt, ptrNameBuf)
	if constPtr {
		b.Str(" const *")
	} else {
		b.Str(" *")
	}
}

// parm is one parameter as ftype__fprintf_parms prints it.
type parm struct {
	name  string
	typ   btf.TypeID
	attrs []string
}

// protoParams returns the parameters of a FUNC_PROTO as pahole's BTF
// loader makes them (the "..." is not one), with their decl tags.
func (n *namer) protoParams(t btf.Type) []parm {
	ps := make([]parm, 0, t.Vlen())
	for i := 0; i < t.Vlen(); i++ {
		p := t.Param(i)
		if p.Type == 0 {
			continue
		}
		var name string
		if p.NameOff != 0 {
			name = t.Spec().String(p.NameOff)
		}
		ps = append(ps, parm{name: name, typ: p.Type, attrs: n.u.parmAttrs[parmKey{t.ID, len(ps)}]})
	}
	return ps
}

// protoUnspec reports whether a FUNC_PROTO ends in "...".
func protoUnspec(t btf.Type) bool {
	for i := 0; i < t.Vlen(); i++ {
		if t.Param(i).Type == 0 {
			return true
		}
	}
	return false
}

// parmSrc is where a prototype's parameters are: a FUNC_PROTO (BTF, and
// the function pointers of either), or a DWARF function's own list.
type parmSrc struct {
	proto   btf.Type
	isProto bool
	dw      []*param
	unspec  bool
}

func protoSrc(t btf.Type) parmSrc { return parmSrc{proto: t, isProto: true} }

// ftype is pahole's ftype__fprintf with no type spacing: the return
// type, " ", then "(*name)" or "name", and the parameters.
func (n *namer) ftype(b *buf, ret btf.TypeID, src parmSrc, name string, inlined, isPointer, isPrototype bool) {
	if inlined {
		b.Str("inline ")
	}
	n.appendTypeName(b, ret, nameBuf)
	b.Byte(' ')
	if isPrototype {
		b.Byte('(')
	}
	if isPointer {
		b.Byte('*')
	}
	b.Str(name)
	if isPrototype {
		b.Byte(')')
	}
	n.parms(b, src, 0)
}

// parms is pahole's ftype__fprintf_parms: with indent 0 the parameters are
// separated by ", ", otherwise each goes on its own line, indented.
func (n *namer) parms(b *buf, src parmSrc, indent int) {
	b.Byte('(')
	count := 0
	unspec := src.unspec
	if src.isProto {
		t := src.proto
		for i := 0; i < t.Vlen(); i++ {
			p := t.Param(i)
			if p.Type == 0 {
				unspec = true
				continue
			}
			var name string
			if p.NameOff != 0 {
				name = t.Spec().String(p.NameOff)
			}
			var attrs []string
			if n.u.parmAttrs != nil {
				attrs = n.u.parmAttrs[parmKey{t.ID, count}]
			}
			n.parm(b, count, name, p.Type, attrs, indent)
			count++
		}
	} else {
		for _, p := range src.dw {
			n.parm(b, count, p.name, p.typ, nil, indent)
			count++
		}
	}
	switch {
	case count == 0:
		b.Str("void)")
	case unspec:
		b.Str(", ...)")
	default:
		b.Byte(')')
	}
}

// parm prints the i'th parameter.
func (n *namer) parm(b *buf, i int, name string, typ btf.TypeID, attrs []string, indent int) {
	if i > 0 {
		if indent == 0 {
			b.Str(", ")
		} else {
			b.Str(",\n")
			b.Tabs(indent)
		}
	}
	if n.noParmNames {
		name = ""
	}
	t, ok := n.typ(typ)
	if !ok {
		writeAttrs(b, attrs)
		b.Str("<ERROR: type ")
		b.Str(strconv.FormatUint(uint64(typ), 10))
		b.Str(" not found>")
		if name != "" {
			b.Byte(' ')
			b.Str(name)
		}
		return
	}
	if t.Kind() == btf.KindPtr && t.Ref() != 0 {
		pt, ok := n.typ(t.Ref())
		if !ok {
			b.Str(notFound(t.Ref()))
			return
		}
		if pt.Kind() == btf.KindFuncProto {
			writeAttrs(b, attrs)
			n.ftype(b, pt.Ref(), protoSrc(pt), name, false, true, true)
			return
		}
	} else if t.Kind() == btf.KindFuncProto {
		writeAttrs(b, attrs)
		n.ftype(b, t.Ref(), protoSrc(t), name, true, false, false)
		return
	}
	writeAttrs(b, attrs)
	n.appendName(b, t, nameBuf)
	if name != "" {
		b.Byte(' ')
		b.Str(name)
	}
}

// writeAttrs is pahole's tag__attributes_fprintf: each decl tag and a
// space.
func writeAttrs(b *buf, attrs []string) {
	for _, a := range attrs {
		b.Str(a)
		b.Byte(' ')
	}
}
