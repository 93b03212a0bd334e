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

func trunc(s string, size int) string {
	if len(s) >= size {
		return s[:size-1]
	}
	return s
}

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

func isStruct(t btf.Type) bool {
	k := t.Kind()
	return k == btf.KindStruct || (k == btf.KindFwd && !t.KindFlag())
}

func isUnion(t btf.Type) bool {
	k := t.Kind()
	return k == btf.KindUnion || (k == btf.KindFwd && t.KindFlag())
}

func isEnum(t btf.Type) bool {
	k := t.Kind()
	return k == btf.KindEnum || k == btf.KindEnum64
}

func isModifier(k btf.Kind) bool {
	return k == btf.KindConst || k == btf.KindVolatile || k == btf.KindRestrict
}

// typeName is pahole's tag__name of a type ID, in a buffer of size bytes.
func (n *namer) typeName(id btf.TypeID, size int) string {
	t, ok := n.typ(id)
	if !ok {
		return trunc("void", size)
	}
	return n.tagName(t, size)
}

// tagName is pahole's __tag__name.
func (n *namer) tagName(t btf.Type, size int) string {
	if n.depth >= maxDepth {
		return trunc("<ERROR: type loop>", size)
	}
	n.depth++
	defer func() { n.depth-- }()
	switch k := t.Kind(); {
	case k == btf.KindInt || k == btf.KindFloat:
		return trunc(n.baseName(t), size)
	case k == btf.KindPtr:
		return n.ptrName(t, size)
	case isModifier(k):
		inner := "void"
		if t.Ref() != 0 {
			it, ok := n.typ(t.Ref())
			if !ok {
				return trunc(notFound(t.Ref()), size)
			}
			inner = n.tagName(it, nameBuf)
		}
		prefix, suffix := "", ""
		switch k {
		case btf.KindConst:
			prefix = "const "
		case btf.KindVolatile:
			prefix = "volatile "
		case btf.KindRestrict:
			suffix = " restrict"
		}
		sp := " "
		if n.noParmNames {
			sp = ""
		}
		return trunc(prefix+inner+suffix+sp, size)
	case k == btf.KindArray:
		et, ok := n.typ(t.Array().Elem)
		if !ok {
			return trunc(notFound(t.Array().Elem), size)
		}
		return n.tagName(et, size)
	case k == btf.KindTypeTag:
		if t.Ref() == 0 {
			return trunc("void", size)
		}
		it, ok := n.typ(t.Ref())
		if !ok {
			return trunc(notFound(t.Ref()), size)
		}
		return n.tagName(it, size)
	case k == btf.KindFuncProto:
		var b buf
		n.ftype(&b, t.Ref(), n.protoParams(t), protoUnspec(t), "", false, false, true, 0)
		return trunc(string(b), size)
	}
	return trunc(n.prefixOf(t)+t.Name(), size)
}

// notFound is pahole's tag__id_not_found_snprintf.
func notFound(id btf.TypeID) string {
	return "<ERROR(__tag__name:" + "0): 0x" + strconv.FormatUint(uint64(id), 16) + " not found!>"
}

// baseName is pahole's base_type__name: from DWARF the name as written;
// from BTF a float gets "single " before its name. (pahole would put
// "bool " before a BTF boolean's name too, but its BTF loader keeps
// BTF_INT_BOOL, 4, in a one-bit field, which keeps 0.)
func (n *namer) baseName(t btf.Type) string {
	name := t.Name()
	if t.NameOff() == 0 {
		return "nameless base type!"
	}
	if n.u.btf && t.Kind() == btf.KindFloat {
		return "single " + name
	}
	return name
}

// prefixOf is pahole's tag__prefix.
func (n *namer) prefixOf(t btf.Type) string {
	switch {
	case isEnum(t):
		return "enum "
	case isStruct(t):
		if n.classes && t.Kind() == btf.KindStruct {
			return "class "
		}
		return "struct "
	case isUnion(t):
		return "union "
	}
	return ""
}

// ptrName is pahole's tag__ptr_name: the pointee's name, a space, "const "
// for a const pointer, and "*".
func (n *namer) ptrName(t btf.Type, size int) string {
	ref := t.Ref()
	if ref == 0 {
		return trunc("void *", size)
	}
	pt, ok := n.typ(ref)
	if !ok {
		return trunc(notFound(ref)+" *", size)
	}
	constPtr := ""
	if pt.Kind() == btf.KindConst {
		if nt, ok := n.typ(pt.Ref()); ok && nt.Kind() == btf.KindPtr {
			constPtr = "const "
			pt = nt
		}
	}
	return trunc(n.tagName(pt, ptrNameBuf)+" "+constPtr+"*", size)
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

// ftype is pahole's ftype__fprintf: the return type (padded to
// typeSpacing), " ", then "(*name)" or "name", and the parameters.
func (n *namer) ftype(b *buf, ret btf.TypeID, ps []parm, unspec bool, name string, inlined, isPointer, isPrototype bool, typeSpacing int) {
	if inlined {
		b.str("inline ")
	}
	b.padRight(n.typeName(ret, nameBuf), typeSpacing)
	b.byte(' ')
	if isPrototype {
		b.byte('(')
	}
	if isPointer {
		b.byte('*')
	}
	b.str(name)
	if isPrototype {
		b.byte(')')
	}
	n.parms(b, ps, unspec, 0)
}

// parms is pahole's ftype__fprintf_parms: with indent 0 the parameters are
// separated by ", ", otherwise each goes on its own line, indented.
func (n *namer) parms(b *buf, ps []parm, unspec bool, indent int) {
	b.byte('(')
	for i, p := range ps {
		if i > 0 {
			if indent == 0 {
				b.str(", ")
			} else {
				b.str(",\n")
				b.tabs(indent)
			}
		}
		name := p.name
		if n.noParmNames {
			name = ""
		}
		t, ok := n.typ(p.typ)
		if !ok {
			writeAttrs(b, p.attrs)
			b.str("<ERROR: type ")
			b.str(strconv.FormatUint(uint64(p.typ), 10))
			b.str(" not found>")
			if name != "" {
				b.byte(' ')
				b.str(name)
			}
			continue
		}
		if t.Kind() == btf.KindPtr && t.Ref() != 0 {
			pt, ok := n.typ(t.Ref())
			if !ok {
				b.str(notFound(t.Ref()))
				continue
			}
			if pt.Kind() == btf.KindFuncProto {
				writeAttrs(b, p.attrs)
				n.ftype(b, pt.Ref(), n.protoParams(pt), protoUnspec(pt), name, false, true, true, 0)
				continue
			}
		} else if t.Kind() == btf.KindFuncProto {
			writeAttrs(b, p.attrs)
			n.ftype(b, t.Ref(), n.protoParams(t), protoUnspec(t), name, true, false, false, 0)
			continue
		}
		stype := n.tagName(t, nameBuf)
		writeAttrs(b, p.attrs)
		b.str(stype)
		if name != "" {
			b.byte(' ')
			b.str(name)
		}
	}
	switch {
	case len(ps) == 0:
		b.str("void)")
	case unspec:
		b.str(", ...)")
	default:
		b.byte(')')
	}
}

// writeAttrs is pahole's tag__attributes_fprintf: each decl tag and a
// space.
func writeAttrs(b *buf, attrs []string) {
	for _, a := range attrs {
		b.str(a)
		b.byte(' ')
	}
}
