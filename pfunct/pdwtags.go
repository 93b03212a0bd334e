package pfunct

// pahole's pdwtags: every tag of every unit printed as C, unit by unit as
// pahole's loader hands them over: the types by their ID in pahole's
// types table, the functions with their lexical blocks, the variables
// and the constants.

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/internal/ctype"
	"github.com/btfkit/btfkit/layout"
)

// typeEntry is one DWARF type entry as pahole's types table holds it.
type typeEntry struct {
	off, typeOff uint64
	tag          dwarf.Tag
	name         string
}

// isTypeTag is pahole's tag__is_tag_type, for the tags its DWARF loader
// reads.
func isTypeTag(t dwarf.Tag) bool {
	switch t {
	case dwarf.TagStructureType, dwarf.TagUnionType, dwarf.TagClassType, dwarf.TagInterfaceType,
		dwarf.TagTypedef, dwarf.TagEnumerationType, dwarf.TagArrayType, dwarf.TagStringType,
		dwarf.TagBaseType, dwarf.TagConstType, dwarf.TagPointerType, dwarf.TagRvalueReferenceType,
		dwarf.TagPtrToMemberType, dwarf.TagReferenceType, dwarf.TagRestrictType,
		dwarf.TagSubroutineType, dwarf.TagUnspecifiedType, dwarf.TagVolatileType, dwarf.TagAtomicType:
		return true
	}
	return false
}

// typeTag reads the type entry just returned and its children: the types
// a struct, union or class defines join the table before it, as pahole's
// die__process_class adds them; a DW_TAG_unspecified_type joins none
// (pahole gives it no ID).
func (l *dwarfLoader) typeTag() error {
	e := &l.e
	te := typeEntry{off: uint64(e.Offset), typeOff: ref(e, dwarf.AttrType), tag: e.Tag}
	te.name, _ = l.str(dwarf.AttrName)
	te.name = strings.Clone(te.name)
	if e.Children {
		switch te.tag {
		case dwarf.TagStructureType, dwarf.TagUnionType, dwarf.TagClassType, dwarf.TagInterfaceType:
			for {
				ok, err := l.r.Next(e)
				if err != nil {
					return err
				}
				if !ok || e.Tag == 0 {
					break
				}
				if isTypeTag(e.Tag) {
					if err := l.typeTag(); err != nil {
						return err
					}
					continue
				}
				if err := l.skip(); err != nil {
					return err
				}
			}
		default:
			if err := l.skip(); err != nil {
				return err
			}
		}
	}
	if te.tag != dwarf.TagUnspecifiedType {
		l.u.types = append(l.u.types, te)
	}
	return nil
}

// namespace is a DW_TAG_namespace as pahole's loader keeps it: its name
// and, in entry order, the types (their types-table indexes) and
// namespaces it holds. The types also join the unit's types table.
type namespace struct {
	name  string
	items []nsItem
}

// nsItem is one tag of a namespace: a type (types-table index) or a
// nested namespace.
type nsItem struct {
	typ int
	ns  *namespace
}

// namespace reads the DW_TAG_namespace entry just returned and its
// children, as pahole's die__process_namespace does for the types and
// namespaces in it (other children, functions included, are not read).
func (l *dwarfLoader) namespace() (*namespace, error) {
	e := &l.e
	ns := &namespace{}
	ns.name, _ = l.str(dwarf.AttrName)
	ns.name = strings.Clone(ns.name)
	if ns.name == "" {
		ns.name = "(null)" // an anonymous namespace: glibc's printf of NULL
	}
	if !e.Children {
		return ns, nil
	}
	for {
		ok, err := l.r.Next(e)
		if err != nil {
			return nil, err
		}
		if !ok || e.Tag == 0 {
			return ns, nil
		}
		switch {
		case isTypeTag(e.Tag):
			off := uint64(e.Offset)
			if err := l.typeTag(); err != nil {
				return nil, err
			}
			if n := len(l.u.types); n > 0 && l.u.types[n-1].off == off {
				ns.items = append(ns.items, nsItem{typ: n - 1})
			}
		case e.Tag == dwarf.TagNamespace:
			inner, err := l.namespace()
			if err != nil {
				return nil, err
			}
			ns.items = append(ns.items, nsItem{typ: -1, ns: inner})
		default:
			if err := l.skip(); err != nil {
				return nil, err
			}
		}
	}
}

// TagsOptions are pdwtags's options.
type TagsOptions struct {
	Format   string // -F: formats to try, comma separated ("" is dwarf,btf)
	DeclInfo bool   // -V: the declaration info before each type and function
	Jobs     int    // DWARF units converted in parallel (0: one per CPU)

	// LangExclude lists DW_LANG codes of DWARF units to leave out.
	LangExclude []uint16
	// Warnings is where the loader's diagnostics go; nil discards them.
	Warnings io.Writer
}

// Tags does what pdwtags does with options o and the FILE arguments
// files, writing to w: byte for byte pahole 1.32's pdwtags's output but
// where pdwtags prints memory it never wrote (see doc.go). Each unit is
// printed as it is loaded; a file that cannot be loaded ends the run
// (a *GlobalsLoadError: "FILE: Invalid argument").
func Tags(w io.Writer, files []string, o TagsOptions) error {
	po := Options{Format: o.Format, Jobs: o.Jobs, LangExclude: o.LangExclude, Warnings: o.Warnings}
	po.globals, po.types = true, true
	bw := bufio.NewWriterSize(w, 1<<16)
	p := newPrinter(bw, po)
	p.conf.declInfo = o.DeclInfo
	p.tags = true
	err := p.loadEach(files)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// emitTags is pdwtags's cu__emit_tags.
func (p *printer) emitTags(u *unit) {
	var b buf
	b.Str("/* Types: */\n\n")
	if u.btf {
		p.emitBTFTypes(&b, u)
	} else {
		p.emitDWARFTypes(&b, u)
	}
	b.Str("/* Functions: */\n\n")
	sizer := p.sizer(u)
	for _, f := range u.funcs {
		saved := p.conf
		p.conf.noSemicolon = true
		p.function(&b, u, f)
		p.conf = saved
		b.Byte('\n')
		p.lexblock(&b, u, f, &f.block, 0)
		b.Str(" /* size: ")
		// tag__size of a function: its return type's; of a function
		// returning void pahole reads memory the function's struct does
		// not hold: 0 here.
		size := uint64(0)
		switch {
		case f.btf && f.proto != 0:
			size = 8 // its FUNC_PROTO's: a subroutine type's, a pointer's
		case !f.btf && f.ret != 0:
			size = sizer.Size(f.ret)
		}
		b.Str(sizeString(size))
		b.Str(" */\n\n")
	}
	b.Str("\n\n/* Variables: */\n\n")
	var tp *layout.TypePrinter
	if u.btf {
		// pahole's BTF loader's variables: every VAR, by ID.
		tp = layout.NewTypePrinter(u.spec, nil, layout.Options{})
		for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
			if t := u.spec.Type(id); t.Kind() == btf.KindVar {
				b = tp.Variable(b, t.Ref(), t.Name())
				b.Str("; /* size: ")
				b.Str(sizeString(sizer.Size(t.Ref())))
				b.Str(" */\n\n")
			}
		}
	}
	for _, v := range u.vars {
		if tp == nil {
			tp = layout.NewTypePrinter(u.spec, u.facts, layout.Options{})
		}
		// A variable at the top level or in an inline expansion has
		// no name or type from its abstract origin (noRecode): without
		// its own, nothing is printed.
		if v.name != "" && v.typ != 0 {
			if v.external && v.declaration {
				b.Str("extern ")
			}
			b = tp.Variable(b, v.typ, v.name)
		}
		b.Str("; /* size: ")
		size := uint64(0)
		if v.typ != 0 {
			size = sizer.Size(v.typ)
		}
		b.Str(sizeString(size))
		b.Str(" */\n\n")
	}
	b.Str("\n\n/* Constants: */\n\n")
	if len(u.namespaces) > 0 {
		if tp == nil {
			tp = layout.NewTypePrinter(u.spec, u.facts, layout.Options{})
		}
		b.Str("\n\n/* Namespaces: */\n\n")
		for _, ns := range u.namespaces {
			b = p.printNamespace(b, tp, u, ns, 0)
			b.Str("\n\n")
		}
	}
	p.w.Write(b)
}

// printNamespace is pahole's namespace__fprintf through tag__fprintf: the
// header and closing brace at indent, each tag one deeper, followed by a
// blank line; the ';' tag__fprintf puts after it.
func (p *printer) printNamespace(b buf, tp *layout.TypePrinter, u *unit, ns *namespace, indent int) buf {
	b.Tabs(indent)
	b.Str("namespace ")
	b.Str(ns.name)
	b.Str(" {\n")
	for _, it := range ns.items {
		if it.ns != nil {
			b = p.printNamespace(b, tp, u, it.ns, indent+1)
		} else if id, ok := u.facts.TypeAt(u.types[it.typ].off); ok {
			b = tp.TagIndent(b, id, indent+1)
		}
		b.Str("\n\n")
	}
	b.Tabs(indent)
	b.Str("};")
	return b
}

// sizeString is a size_t printed with %zd.
func sizeString(n uint64) string { return strconv.FormatInt(int64(n), 10) }

// sizer sizes u's types by pahole's tag__size.
func (p *printer) sizer(u *unit) *ctype.Sizer {
	return &ctype.Sizer{Spec: u.spec, Facts: u.facts, DWARF: !u.btf, PtrSize: 8}
}

// emitDWARFTypes prints the unit's types in pahole's order, each with
// its ID in pahole's types table (emit_tag).
func (p *printer) emitDWARFTypes(b *buf, u *unit) {
	ids := make(map[uint64]int, len(u.types))
	for i, te := range u.types {
		ids[te.off] = i + 1
	}
	tp := layout.NewTypePrinter(u.spec, u.facts, layout.Options{})
	sizer := p.sizer(u)
	for i, te := range u.types {
		b.Str("/* ")
		b.Str(strconv.Itoa(i + 1))
		b.Str(" */\n")
		id, _ := u.facts.TypeAt(te.off)
		var size uint64
		switch te.tag {
		case dwarf.TagBaseType:
			b.Str(te.name)
			b.Byte('\n')
			size = sizer.Size(id)
		case dwarf.TagPointerType:
			b.Str(" /* pointer to ")
			b.Str(strconv.Itoa(ids[te.typeOff]))
			b.Str(" */\n")
			size = 8
		default:
			*b = tp.Tag(*b, id, p.conf.declInfo, u.name)
			size = sizer.Size(id)
		}
		b.Str(" /* size: ")
		b.Str(sizeString(size))
		b.Str(" */\n\n")
	}
}

// emitBTFTypes prints a BTF unit's types by ID.
func (p *printer) emitBTFTypes(b *buf, u *unit) {
	tp := layout.NewTypePrinter(u.spec, nil, layout.Options{})
	tp.SetParamAttrs(u.paramAttrs)
	sizer := p.sizer(u)
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		switch t.Kind() {
		case btf.KindVar, btf.KindFunc, btf.KindDatasec, btf.KindDeclTag:
			continue // in pahole's tags and functions tables, attributes, or read as nothing
		}
		b.Str("/* ")
		b.Str(strconv.Itoa(int(id)))
		b.Str(" */\n")
		switch t.Kind() {
		case btf.KindInt:
			b.Str(t.Name())
			b.Byte('\n')
		case btf.KindFloat:
			// base_type__name: pahole's BTF loader makes every FLOAT a
			// single precision one.
			b.Str("single ")
			b.Str(t.Name())
			b.Byte('\n')
		case btf.KindPtr:
			b.Str(" /* pointer to ")
			b.Str(strconv.Itoa(int(t.Ref())))
			b.Str(" */\n")
		default:
			*b = tp.Tag(*b, id, p.conf.declInfo, u.name)
		}
		b.Str(" /* size: ")
		b.Str(sizeString(sizer.Size(id)))
		b.Str(" */\n\n")
	}
}
