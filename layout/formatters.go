package layout

import (
	"github.com/btfkit/btfkit/btf"
)

// What a listing prints for each type it selects (pahole's formatters):
// the layout, or one line of fields (-s, -n, -N, -z), or nothing (-T,
// whose counts structures.go prints at the end).

// formatter is one of pahole's per-type printers.
type formatter int

const (
	formatLayout  formatter = iota // class_formatter
	formatSizes                    // size_formatter (-s)
	formatMembers                  // nr_members_formatter (-n)
	formatNameLen                  // class_name_len_formatter (-N)
	formatName                     // class_name_formatter (-z)
	formatNone                     // none: -T's counts come at the end
)

func (o *Options) formatter() formatter {
	switch {
	case o.Sizes:
		return formatSizes
	case o.NrMembers:
		return formatMembers
	case o.ClassNameLen:
		return formatNameLen
	case o.NamesOnly:
		return formatName
	case o.NrDefinitions:
		return formatNone
	}
	return formatLayout
}

// separator is the byte between the fields of the one-line listings.
func (o *Options) separator() byte {
	if o.Separator == "" {
		return '\t'
	}
	return o.Separator[0]
}

// formatType prints what the listing's formatter prints for type id.
func (l *Listing) formatType(u *unit, b *buf, id btf.TypeID) {
	t := u.spec.Type(id)
	sep := l.opts.separator()
	switch l.formatter {
	case formatLayout:
		l.formatLayout(u, b, id)
	case formatSizes:
		b.Str(cName(t))
		b.Byte(sep)
		b.Int(int64(int32(typeSize(t))))
		b.Byte(sep)
		var holes uint8
		if t.IsStruct() {
			holes = u.class(id).nrHoles
		}
		// For a typedef or an enum found by -C, pahole prints memory
		// past its type object here; 0 stands for it.
		b.Uint(uint64(holes))
		b.Byte('\n')
	case formatMembers:
		b.Str(cName(t))
		b.Byte(sep)
		b.Uint(uint64(uint16(t.Vlen())))
		b.Byte('\n')
	case formatNameLen:
		// pahole takes strlen(NULL) for an anonymous type (-a) and
		// crashes; the name is printed as printf prints NULL.
		b.Str(cName(t))
		b.Byte(sep)
		b.Int(int64(len(t.Name())))
		b.Byte('\n')
	case formatName:
		b.Str(cName(t))
		b.Byte('\n')
	}
}

// cName is a type's name as printf's %s prints a C string that may be
// NULL.
func cName(t btf.Type) string {
	if t.Name() == "" {
		return "(null)"
	}
	return t.Name()
}

// typeSize is pahole's type->size: bytes for structs and unions, bits for
// enums, 0 for typedefs (and for a FWD).
func typeSize(t btf.Type) uint32 {
	switch {
	case t.Kind() == btf.KindFwd || t.Kind() == btf.KindTypedef:
		return 0
	case t.IsEnum():
		return enumOrFloatSize(t) * 8
	}
	return t.Size()
}

// formatLayout is pahole's class_formatter: the type on its own line. An
// anonymous struct or union is printed as its first typedef ("typedef
// struct {...} name;"), and one without a typedef only with
// NestedAnonInclude.
func (l *Listing) formatLayout(u *unit, b *buf, id btf.TypeID) {
	c := l.topConf()
	t := u.spec.Type(id)
	if t.Name() == "" {
		td := u.firstTypedef(id)
		if td == 0 && !l.opts.NestedAnonInclude {
			return
		}
		if td != 0 {
			c.prefix, c.hasPrefix = "typedef", true
			c.suffix, c.hasSuffix = u.spec.Type(td).Name(), true
		}
	}
	// pahole's conf keeps the suffix until the next type is formatted;
	// --contains_enumerator's enums are printed with it. (Only then: a
	// Batch prints units on many goroutines.)
	if l.opts.ContainsEnumerator != "" {
		l.suffix, l.hasSuffix = c.suffix, c.hasSuffix
	}
	if l.opts.Compile {
		l.formatCompilable(u, b, id, c) // compile.go
		return
	}
	u.printTop(b, id, c)
	b.Byte('\n')
}
