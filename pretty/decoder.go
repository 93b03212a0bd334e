package pretty

import (
	"errors"
	"fmt"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// Options say how to read the data: as which types, from where, how much.
type Options struct {
	// Classes are the types the records are read as (-C), decoded one
	// after the other: each reads records until its count, its byte range
	// or the input ends, then the next one goes on from there.
	Classes []Class

	// Header names a struct read once, before the records, whose members
	// SeekBytes, SizeBytes and Range may use ("$header.data.offset").
	// With no Classes, the header alone is decoded, as one record.
	Header string

	// SeekBytes is where the records start: a number (with a header,
	// counted from the start of the input; without one, from where the
	// previous class stopped) or "$header.MEMBER". Before the current
	// offset only in data that can seek (Decode's reader is an io.Seeker
	// that seeks: a file), never before the start.
	SeekBytes string
	// SizeBytes is how many bytes of records to read: a number or
	// "$header.MEMBER". A record that starts within it is read whole.
	SizeBytes string
	// Range names a header member with "offset" and "size" members, a
	// shorthand for SeekBytes=$header.R.offset and SizeBytes=$header.R.size
	// for every class. A class's range= argument does the same for that
	// class; Range takes precedence over it, and either over SeekBytes and
	// SizeBytes.
	Range string

	// Count stops a class after that many printed records (0: no limit).
	Count uint64
	// Skip drops the first Skip records of each class that pass its filter.
	Skip uint64

	// HeaderRecord makes Decode hand the header to emit as the first
	// record (pahole reads it without printing it).
	HeaderRecord bool

	// PointerSize is the size of a pointer in the data; 0 guesses it
	// from the types as pahole's BTF loader does (libbpf's
	// btf__pointer_size: the size of C's long), 8 without a long.
	PointerSize int
	// MaxRecordSize bounds a record's size as its size member gives it
	// (default DefaultMaxRecordSize); a larger one is a *DataError.
	MaxRecordSize int

	// Verbose, when set, receives pahole's -V messages about the values
	// it evaluated (seek and size bytes), one line each without "\n".
	Verbose func(msg string)
}

// DefaultMaxRecordSize is the default bound on one record's size.
const DefaultMaxRecordSize = 256 << 20

// Record is one record read from the input.
type Record struct {
	// Offset is where the record starts in the input.
	Offset int64
	// Class is the -C class it was read as; nil for the header.
	Class *Class
	// ClassType is the class's type, and ClassSize its size: how many
	// bytes are read before the size member is known.
	ClassType btf.Type
	ClassSize int
	// Type is the type the record is printed as: the struct its type
	// enumerator picks, or the class's type.
	Type btf.Type
	// Size is the record's size as pahole counts it: its size member's
	// value when the class has one (which may be less than ClassSize),
	// otherwise ClassSize.
	Size int
	// Data holds the bytes the record took from the input (at least
	// ClassSize). It is only valid until emit returns.
	Data []byte

	// view is Data followed by what pahole would see past the record in
	// its buffer (bytes of earlier, longer records, else zeros), at least
	// as long as Type: pahole prints a struct longer than the record from
	// there.
	view []byte
}

// IsHeader reports whether the record is the --header struct.
func (r *Record) IsHeader() bool { return r.Class == nil }

// Decoder decodes records from a stream with the types of a Spec.
type Decoder struct {
	ts      *types
	opts    Options
	classes []*class
	header  btf.Type // zero when there is none
	annot   map[btf.TypeID]*annotation
}

// class is a resolved Class.
type class struct {
	*Class
	t          btf.Type
	size       int
	sizeof     *member
	typeMember *member
	enums      *enumSet
	filter     *filter
	realTypes  map[uint64]realType // type member value -> struct to print
	realSmall  []realType          // the same for values below smallValues
	buf        []byte
}

// realType is the type a record with some type member value is printed
// as, and its size.
type realType struct {
	t    btf.Type
	size int
	ok   bool // looked up
}

// annotation is what a class's arguments attach to its struct wherever it
// is printed, nested ones included (pahole keeps them on the type): the
// member whose value is printed as an enumerator of enums.
type annotation struct {
	typeMember int
	enums      *enumSet
}

// filter is MEMBER==VALUE.
type filter struct {
	m     member
	value uint64
}

// NewDecoder resolves the types opts names in spec. Its errors say which
// type, member or enum was not found, as pahole's messages do.
func NewDecoder(spec *btf.Spec, opts Options) (*Decoder, error) {
	if opts.MaxRecordSize <= 0 {
		opts.MaxRecordSize = DefaultMaxRecordSize
	}
	if len(opts.Classes) == 0 {
		if opts.Header == "" {
			return nil, errors.New("no type to decode the data with")
		}
		// pahole: --header T alone is -C T --count 1.
		opts.Classes = []Class{{Name: opts.Header}}
		opts.Count, opts.Header = 1, ""
	}
	d := &Decoder{ts: newTypes(spec, opts.PointerSize), opts: opts, annot: map[btf.TypeID]*annotation{}}
	if opts.Header != "" {
		t, ok := d.ts.find(opts.Header)
		if !ok {
			return nil, fmt.Errorf("--header type '%s' not found", opts.Header)
		}
		if t.Kind() != btf.KindStruct && t.Kind() != btf.KindUnion {
			return nil, fmt.Errorf("--header type '%s' is a %s, not a struct or union", opts.Header, kindWord(t.Kind()))
		}
		if size := d.ts.size(t.ID); size > opts.MaxRecordSize {
			return nil, fmt.Errorf("--header type '%s' is %d bytes, more than the record size limit of %d", opts.Header, size, opts.MaxRecordSize)
		}
		d.header = t
	}
	for _, ref := range []struct{ opt, val string }{{"--seek_bytes", opts.SeekBytes}, {"--size_bytes", opts.SizeBytes}} {
		if ref.val == "" {
			continue
		}
		if strings.HasPrefix(ref.val, "$header.") {
			if opts.Header == "" {
				return nil, fmt.Errorf("%s (%s) makes reference to --header but it wasn't specified", ref.opt, ref.val)
			}
		} else if _, err := parseNumber(ref.opt, ref.val); err != nil {
			return nil, err
		}
	}
	for i := range opts.Classes {
		c, err := d.resolve(&d.opts.Classes[i])
		if err != nil {
			return nil, err
		}
		if c.Range != "" || opts.Range != "" {
			if opts.Header == "" {
				r := c.Range
				if opts.Range != "" {
					r = opts.Range
				}
				return nil, fmt.Errorf("range (%s) requires --header", r)
			}
		}
		d.classes = append(d.classes, c)
	}
	return d, nil
}

func kindWord(k btf.Kind) string { return strings.ToLower(k.String()) }

// resolve finds a class's type and the members and enums its arguments name.
func (d *Decoder) resolve(c *Class) (*class, error) {
	t, ok := d.ts.find(c.Name)
	if !ok {
		return nil, fmt.Errorf("type '%s' not found", c.Name)
	}
	rc := &class{Class: c, t: t, size: d.ts.size(t.ID)}
	if rc.size > d.opts.MaxRecordSize {
		return nil, fmt.Errorf("type '%s' is %d bytes, more than the record size limit of %d", c.Name, rc.size, d.opts.MaxRecordSize)
	}
	if !c.HasArgs() {
		return rc, nil
	}
	if t.Kind() != btf.KindStruct {
		return nil, fmt.Errorf("type '%s' is a %s: arguments are only supported with structs", c.Name, kindWord(t.Kind()))
	}
	if c.Sizeof != "" {
		m, ok := d.ts.findMember(t, c.Sizeof)
		if !ok {
			return nil, fmt.Errorf("the sizeof member '%s' wasn't found in the '%s' type", c.Sizeof, c.Name)
		}
		rc.sizeof = &m
	}
	if c.TypeMember != "" {
		m, ok := d.ts.findMember(t, c.TypeMember)
		if !ok {
			return nil, fmt.Errorf("the type member '%s' wasn't found in the '%s' type", c.TypeMember, c.Name)
		}
		rc.typeMember = &m
	}
	if len(c.TypeEnum) > 0 {
		var enums []btf.Type
		for _, name := range c.TypeEnum {
			e, ok := d.ts.findEnum(name)
			if !ok {
				return nil, fmt.Errorf("'type_enum=%s' couldn't be evaluated for '%s' type: enum '%s' not found", strings.Join(c.TypeEnum, "+"), c.Name, name)
			}
			enums = append(enums, e)
		}
		rc.enums = newEnumSet(enums)
		if rc.typeMember != nil {
			rc.realTypes = map[uint64]realType{}
			rc.realSmall = make([]realType, smallValues)
			d.annot[t.ID] = &annotation{typeMember: rc.typeMember.index, enums: rc.enums}
		}
	}
	if c.Filter != "" {
		f, err := d.parseFilter(rc, c.Filter)
		if err != nil {
			return nil, fmt.Errorf("invalid filter '%s' for '%s': %v", c.Filter, c.Name, err)
		}
		rc.filter = f
	}
	return rc, nil
}

// parseFilter parses MEMBER==VALUE: VALUE is a C integer, or with
// type_enum an enumerator of the type member, with or without its enum's
// common prefix.
func (d *Decoder) parseFilter(c *class, expr string) (*filter, error) {
	left, right, ok := strings.Cut(expr, "==")
	if !ok {
		return nil, errors.New("no supported operator ('==' so far)")
	}
	left = strings.TrimSpace(left)
	if left == "" {
		return nil, errors.New("no left operand (struct member)")
	}
	m, ok := d.ts.findMember(c.t, left)
	if !ok {
		return nil, fmt.Errorf("the '%s' member wasn't found in '%s'", left, c.Name)
	}
	right = strings.TrimLeft(right, " \t\n\v\f\r")
	if right == "" {
		return nil, fmt.Errorf("no value to compare '%s' with", left)
	}
	if v, n := parseCInt(right); n > 0 && (n == len(right) || isSpace(right[n])) {
		return &filter{m: m, value: uint64(v)}, nil
	}
	if c.enums == nil {
		return nil, fmt.Errorf("symbolic value '%s' but no type_enum to resolve it to a number", right)
	}
	if c.typeMember == nil || c.typeMember.index != m.index {
		return nil, fmt.Errorf("symbolic value '%s' for '%s', which is not the type= member", right, left)
	}
	e, ok := c.enums.byName(right)
	if !ok {
		return nil, fmt.Errorf("couldn't resolve '%s' with the type_enum %s", right, strings.Join(c.TypeEnum, "+"))
	}
	return &filter{m: m, value: e.value}, nil
}

// realType is the type a record is printed as, and its size: the struct
// named after the enumerator its type member holds, else the class's type.
func (c *class) realType(ts *types, data []byte) (btf.Type, int) {
	if c.realTypes == nil {
		return c.t, c.size
	}
	v := signedValue(data[c.typeMember.byteOff:], c.typeMember.byteSize)
	if v < smallValues && c.realSmall[v].ok {
		return c.realSmall[v].t, c.realSmall[v].size
	}
	if r, ok := c.realTypes[v]; ok {
		return r.t, r.size
	}
	r := realType{t: c.t, size: c.size, ok: true}
	if e, ok := c.enums.byValue(v); ok {
		if s, ok := ts.find(structName(e.name)); ok && s.Kind() == btf.KindStruct {
			r.t, r.size = s, ts.size(s.ID)
		}
	}
	if v < smallValues {
		c.realSmall[v] = r
	} else {
		c.realTypes[v] = r
	}
	return r.t, r.size
}
