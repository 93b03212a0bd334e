package ctype

import (
	"strconv"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/cfmt"
)

// Sizes of the C buffers pahole spells names into; a name that does not
// fit is cut to one byte less, as snprintf cuts it.
const (
	NameBuf    = 128  // tag__name's callers, ftype__fprintf and its parameters
	PtrNameBuf = 1024 // the pointee's name in tag__ptr_name
)

// maxDepth bounds how deep naming follows types into types: valid BTF
// and DWARF nest far less, and malformed types that contain themselves
// end in "<ERROR: type loop>" instead of exhausting the stack.
const maxDepth = 512

// dwLangCPlusPlus is DW_LANG_C_plus_plus: every struct of such a unit is
// spelled "class".
const dwLangCPlusPlus = 0x4

// Options are the parts of pahole's conf_fprintf that change how a type
// is named. The zero value is pahole's defaults.
type Options struct {
	// ClassesAsStructs is --classes_as_structs: C++ classes (and the
	// structs of a C++ unit) are spelled "struct", not "class".
	ClassesAsStructs bool
	// NoParmNames is pfunct's --no_parm_names: parameters are printed
	// without their names, and a qualified type's name without the
	// space pahole otherwise puts after it.
	NoParmNames bool
	// ParamAttrs, when set, gives the decl tags of parameter i of the
	// FUNC_PROTO proto (counting the parameters that have a type), each
	// printed before the parameter followed by a space.
	ParamAttrs func(proto btf.TypeID, i int) []string
}

// Namer spells the types of one unit: a Spec (a DWARF compile unit
// converted by package encode, or BTF) and, for DWARF, the facts beside
// it. A nil Facts means the types were read from BTF, which changes a
// few names (a float is "single float"). A Namer is not safe for
// concurrent use: it counts how deep it is in a type.
type Namer struct {
	spec  *btf.Spec
	facts *dwarffacts.Facts
	opts  Options
	names map[btf.TypeID]string // Rename's
	depth int
}

// NewNamer returns a Namer for the types of spec.
func NewNamer(spec *btf.Spec, facts *dwarffacts.Facts, o Options) *Namer {
	return &Namer{spec: spec, facts: facts, opts: o, names: map[btf.TypeID]string{}}
}

// SetOptions replaces the options the Namer was made with.
func (n *Namer) SetOptions(o Options) { n.opts = o }

// Options are the options the Namer uses.
func (n *Namer) Options() Options { return n.opts }

// WithOptions returns a Namer for the same types with other options; it
// shares the renames, past and future.
func (n *Namer) WithOptions(o Options) *Namer {
	c := *n
	c.opts = o
	c.depth = 0
	return &c
}

// Type is pahole's cu__type: the type id names, false for void (0), for
// an ID the unit does not have, and for the kinds pahole does not keep
// among a unit's types (FUNC, VAR, DATASEC, DECL_TAG).
func (n *Namer) Type(id btf.TypeID) (btf.Type, bool) { return typeOf(n.spec, id) }

// Rename gives a struct, union or enum another name from now on (as
// pahole's --compile names one NAME__1 when another kind of tag has its
// name); Name and every name built from it use it.
func (n *Namer) Rename(id btf.TypeID, name string) {
	n.names[id] = name
}

// Name is t's own name, as renamed by Rename if it was.
func (n *Namer) Name(t btf.Type) string {
	if name, ok := n.names[t.ID]; ok {
		return name
	}
	return t.Name()
}

// TagName is pahole's tag__name of type id: how the type is spelled
// before a declarator, cut to fit a buffer of size bytes.
func (n *Namer) TagName(id btf.TypeID, size int) string {
	var b cfmt.Buf
	n.AppendTagName(&b, id, size)
	return string(b)
}

// AppendTagName appends TagName(id, size) to b.
func (n *Namer) AppendTagName(b *cfmt.Buf, id btf.TypeID, size int) {
	t, ok := n.Type(id)
	if !ok {
		b.Cut(len(*b), "void", size)
		return
	}
	n.AppendName(b, t, size)
}

// AppendName appends pahole's tag__name of t (a type Type returned),
// cut to size-1 bytes.
func (n *Namer) AppendName(b *cfmt.Buf, t btf.Type, size int) {
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
		b.Str(n.BaseName(t))
	case k == btf.KindPtr:
		n.appendPtrName(b, t)
	case btf.IsQualifier(k):
		switch k {
		case btf.KindConst:
			b.Str("const ")
		case btf.KindVolatile:
			// A DW_TAG_atomic_type is a VOLATILE in BTF; the facts
			// say which.
			if n.facts.Atomic(t.ID) {
				b.Str("_Atomic ")
			} else {
				b.Str("volatile ")
			}
		}
		if !n.appendRef(b, t.Ref(), NameBuf) {
			*b = (*b)[:start]
			b.Str(NotFound(t.Ref()))
			return
		}
		if k == btf.KindRestrict {
			b.Str(" restrict")
		}
		if !n.opts.NoParmNames {
			b.Byte(' ')
		}
	case k == btf.KindArray:
		// An array is spelled as its element; through the inner
		// ARRAYs of a multi-dimensional one too.
		if et, ok := n.Type(t.Array().Elem); ok {
			n.AppendName(b, et, size)
		} else {
			b.Str(NotFound(t.Array().Elem))
		}
	case k == btf.KindTypeTag:
		if !n.appendRef(b, t.Ref(), size) {
			b.Str(NotFound(t.Ref()))
		}
	case k == btf.KindFuncProto:
		n.AppendFtype(b, ProtoOf(t), "", false, false, 0, true)
	default:
		b.Str(n.Prefix(t))
		b.Str(n.Name(t))
	}
}

// appendRef appends the name of the type a modifier refers to, "void"
// for none; false (and nothing appended) when ref is not a type.
func (n *Namer) appendRef(b *cfmt.Buf, ref btf.TypeID, size int) bool {
	if ref == 0 {
		b.Str("void")
		return true
	}
	t, ok := n.Type(ref)
	if ok {
		n.AppendName(b, t, size)
	}
	return ok
}

// NotFound is pahole's tag__id_not_found_snprintf of a type ID that is
// not a type of the unit.
func NotFound(id btf.TypeID) string {
	return "<ERROR(__tag__name:0): 0x" + strconv.FormatUint(uint64(id), 16) + " not found!>"
}

// BaseName is pahole's base_type__name of an INT or FLOAT: from DWARF
// the name as written; from BTF a float gets "single " before its name.
// (pahole would put "bool " before a BTF boolean's name too, but its BTF
// loader keeps BTF_INT_BOOL, 4, in a one-bit field, which keeps 0.)
func (n *Namer) BaseName(t btf.Type) string {
	if t.NameOff() == 0 {
		return "nameless base type!"
	}
	if n.facts == nil && t.Kind() == btf.KindFloat {
		return "single " + t.Name()
	}
	return t.Name()
}

// Prefix is pahole's tag__prefix: the keyword before a struct's, union's
// or enum's name ("struct ", "union ", "enum "), "class " for a C++ class
// and for any struct of a C++ unit unless ClassesAsStructs; "" for other
// types.
func (n *Namer) Prefix(t btf.Type) string {
	switch {
	case t.IsEnum():
		return "enum "
	case t.IsStruct():
		if !n.opts.ClassesAsStructs && (n.facts.Class(t.ID) || n.facts.Language() == dwLangCPlusPlus) {
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
func (n *Namer) appendPtrName(b *cfmt.Buf, t btf.Type) {
	ref := t.Ref()
	if ref == 0 {
		b.Str("void *")
		return
	}
	pt, ok := n.Type(ref)
	if !ok {
		b.Str(NotFound(ref))
		b.Str(" *")
		return
	}
	constPtr := false
	if pt.Kind() == btf.KindConst {
		if nt, ok := n.Type(pt.Ref()); ok && nt.Kind() == btf.KindPtr {
			constPtr = true
			pt = nt
		}
	}
	n.AppendName(b, pt, PtrNameBuf)
	if constPtr {
		b.Str(" const *")
	} else {
		b.Str(" *")
	}
}

// ParamList is a prototype's parameters kept outside BTF (a DWARF
// function's own list).
type ParamList interface {
	NumParams() int
	Param(i int) (name string, typ btf.TypeID)
}

// Proto is a function's prototype as Ftype prints it: a return type and
// parameters, from a FUNC_PROTO (ProtoOf) or from a ParamList.
type Proto struct {
	Ret    btf.TypeID
	List   ParamList // the parameters when the prototype is not a FUNC_PROTO
	Unspec bool      // List ends in "..."

	fp      btf.Type
	isProto bool
}

// ProtoOf is the prototype a FUNC_PROTO describes.
func ProtoOf(fp btf.Type) Proto { return Proto{Ret: fp.Ref(), fp: fp, isProto: true} }

// AppendFtype is pahole's ftype__fprintf: "inline " if inlined, the
// return type's name padded to typeSpacing, a space, then the name
// ("(*name)" for a pointer, parenthesized when isPrototype) and the
// parameters.
func (n *Namer) AppendFtype(b *cfmt.Buf, p Proto, name string, inlined, isPointer bool, typeSpacing int, isPrototype bool) {
	if inlined {
		b.Str("inline ")
	}
	start := len(*b)
	n.AppendTagName(b, p.Ret, NameBuf)
	b.Repeat(' ', abs(typeSpacing)-(len(*b)-start)) // "%-*s": a negative width is a width too
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
	n.AppendParams(b, p, 0)
}

// AppendParams is pahole's ftype__fprintf_parms: the parameters in
// parentheses, "void" when there are none and ", ..." after the last of
// a variadic prototype; with indent 0 separated by ", ", otherwise each
// on its own line after indent tabs.
func (n *Namer) AppendParams(b *cfmt.Buf, p Proto, indent int) {
	b.Byte('(')
	count := 0
	unspec := p.Unspec
	if p.isProto {
		t := p.fp
		for i := 0; i < t.Vlen(); i++ {
			pm := t.Param(i)
			if pm.Type == 0 {
				unspec = true
				continue
			}
			var name string
			if pm.NameOff != 0 {
				name = t.Spec().String(pm.NameOff)
			}
			var attrs []string
			if n.opts.ParamAttrs != nil {
				attrs = n.opts.ParamAttrs(t.ID, count)
			}
			n.param(b, count, name, pm.Type, attrs, indent)
			count++
		}
	} else if p.List != nil {
		for i := range p.List.NumParams() {
			name, typ := p.List.Param(i)
			n.param(b, count, name, typ, nil, indent)
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

// param prints parameter i.
func (n *Namer) param(b *cfmt.Buf, i int, name string, typ btf.TypeID, attrs []string, indent int) {
	if i > 0 {
		if indent == 0 {
			b.Str(", ")
		} else {
			b.Str(",\n")
			b.Tabs(indent)
		}
	}
	if n.opts.NoParmNames {
		name = ""
	}
	t, ok := n.Type(typ)
	if !ok {
		AppendAttrs(b, attrs)
		b.Str("<ERROR: type ")
		b.Uint(uint64(typ))
		b.Str(" not found>")
		if name != "" {
			b.Byte(' ')
			b.Str(name)
		}
		return
	}
	if t.Kind() == btf.KindPtr && t.Ref() != 0 {
		pt, ok := n.Type(t.Ref())
		if !ok {
			b.Str(NotFound(t.Ref()))
			return
		}
		if pt.Kind() == btf.KindFuncProto {
			AppendAttrs(b, attrs)
			n.AppendFtype(b, ProtoOf(pt), name, false, true, 0, true)
			return
		}
	} else if t.Kind() == btf.KindFuncProto {
		AppendAttrs(b, attrs)
		n.AppendFtype(b, ProtoOf(t), name, true, false, 0, false)
		return
	}
	AppendAttrs(b, attrs)
	n.AppendName(b, t, NameBuf)
	if name != "" {
		b.Byte(' ')
		b.Str(name)
	}
}

// AppendAttrs is pahole's tag__attributes_fprintf: each decl tag and a
// space.
func AppendAttrs(b *cfmt.Buf, attrs []string) {
	for _, a := range attrs {
		b.Str(a)
		b.Byte(' ')
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
