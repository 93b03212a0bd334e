package layout

import (
	"io"
	"strconv"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// Listing is one run of pahole's layout printing over a sequence of
// inputs. Hand each input to Unit in order; a type printed from one input
// is not printed again from a later one (pahole compares name, size and
// members), and -C names found in one input are not looked for again.
type Listing struct {
	opts      Options
	cacheline uint32
	seen      map[string]struct{}
	pending   []string // -C names not found yet, in order
	found     int
}

// NewListing starts a listing with the given options.
func NewListing(o Options) *Listing {
	cl := o.cachelineSize()
	if cl == 0 {
		cl = 64
	}
	return &Listing{
		opts:      o,
		cacheline: cl,
		seen:      make(map[string]struct{}),
		pending:   append([]string(nil), o.ClassNames...),
	}
}

// Unit prints to w what pahole prints for one input: a BTF Spec (split
// Specs include their base's types, as pahole loads them), one member of a
// BTF archive, or one DWARF compile unit converted by package encode with
// its facts (nil for BTF). It reports whether pahole would stop reading
// further inputs: every -C name has been found.
func (l *Listing) Unit(w io.Writer, spec *btf.Spec, facts *dwarffacts.Facts) (stop bool, err error) {
	u := newUnit(spec, facts, l.cacheline)
	var b buf
	if len(l.opts.ClassNames) == 0 {
		err = l.printClasses(w, u, &b)
		return false, err
	}
	stop = l.printNamed(u, &b)
	_, err = w.Write(b)
	return stop, err
}

// Missing returns the first -C name no input had; pahole reports it as
// "pahole: type 'NAME' not found" (and still exits with status 0).
func (l *Listing) Missing() (string, bool) {
	if len(l.pending) == 0 {
		return "", false
	}
	return l.pending[0], true
}

// flushAt is how much output is collected before it is written.
const flushAt = 256 << 10

// printClasses is pahole's print_classes: every named struct and union
// that is defined, at the top level of its unit, and not printed before,
// in type ID order.
func (l *Listing) printClasses(w io.Writer, u *unit, b *buf) error {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !isStruct(t) && !isUnion(t) {
			continue
		}
		if t.NameOff() == 0 {
			continue
		}
		if !l.filter(u, id, t) {
			continue
		}
		key := structKey(u, t)
		if _, dup := l.seen[key]; dup {
			continue
		}
		l.seen[key] = struct{}{}
		if l.opts.Packable {
			l.printPackable(u, b, id)
		} else {
			l.format(u, b, id)
		}
		if len(*b) >= flushAt {
			if _, err := w.Write(*b); err != nil {
				return err
			}
			*b = (*b)[:0]
		}
	}
	_, err := w.Write(*b)
	*b = (*b)[:0]
	return err
}

// filter is pahole's class__filter with its default options.
func (l *Listing) filter(u *unit, id btf.TypeID, t btf.Type) bool {
	if u.facts.Nested(id) {
		// Defined inside a function or another type: pahole prints it
		// only with --show_private_classes.
		u.class(id).findHoles()
		return false
	}
	if t.Kind() == btf.KindFwd {
		return false
	}
	if isUnion(t) {
		return !l.opts.Packable // pahole: --packable lists structs only
	}
	c := u.class(id)
	c.findHoles()
	return !l.opts.Packable || u.packable(c)
}

// structKey is what pahole compares to tell whether a struct or union was
// printed already: its name, size and number of members, and each member's
// name, bit offset and bitfield size.
func structKey(u *unit, t btf.Type) string {
	var sb strings.Builder
	sb.WriteString(t.Name())
	sb.WriteByte(0)
	sb.WriteString(strconv.FormatUint(uint64(t.Size()), 10))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(t.Vlen()))
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		off, bits := t.MemberBits(i)
		sb.WriteByte(0)
		if m.NameOff != 0 {
			sb.WriteString(u.spec.String(m.NameOff))
		} else {
			sb.WriteByte(1)
		}
		sb.WriteByte(0)
		sb.WriteString(strconv.FormatUint(uint64(off), 10))
		sb.WriteByte(':')
		sb.WriteString(strconv.FormatUint(uint64(bits), 10))
	}
	return sb.String()
}

// format is pahole's class_formatter: the type printed on its own line.
func (l *Listing) format(u *unit, b *buf, id btf.TypeID) {
	u.printTop(b, id, l.topConf())
	b.byte('\n')
}

// topConf is pahole's global conf_fprintf: how a type printed on its own
// is laid out.
func (l *Listing) topConf() conf {
	return conf{emitStats: true, hex: l.opts.Hex}
}

// printNamed is the -C part of pahole's printing callback: each name still
// wanted is looked up in this input, in order; a name this input lacks
// ends the search here unless SkipMissing.
func (l *Listing) printNamed(u *unit, b *buf) bool {
	rest := l.pending[:0:0]
	for i, name := range l.pending {
		id := findType(u, name)
		if id == 0 {
			if l.opts.SkipMissing {
				rest = append(rest, name)
				continue
			}
			rest = append(rest, l.pending[i:]...)
			l.pending = rest
			return false
		}
		t := u.spec.Type(id)
		if isStruct(t) {
			u.class(id).findHoles()
		}
		if l.opts.Reorganize {
			if isStruct(t) {
				l.printReorganized(u, b, id)
			}
			continue
		}
		l.format(u, b, id)
		b.byte('\n')
	}
	l.pending = rest
	return len(l.pending) == 0
}

// findType is pahole's cu__find_type_by_name: the first struct, union,
// enum or typedef of that name that is not only a declaration.
func findType(u *unit, name string) btf.TypeID {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64, btf.KindTypedef:
			if t.Name() == name {
				return id
			}
		}
	}
	return 0
}
