package layout

import (
	"encoding/binary"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/ctype"
)

// Listing is one run of pahole's layout printing over a sequence of
// inputs. Hand each input to Unit in order; a type printed from one input
// is not printed again from a later one (pahole compares name, size and
// members), and -C names found in one input are not looked for again.
type Listing struct {
	opts      Options
	emit      *ctype.Emissions // --compile (compile.go)
	emitUnit  *ctype.Emitter   // --compile: the unit being printed
	emitFor   *unit            // emitUnit's
	cacheline uint32
	formatter formatter  // what is printed for each type (formatters.go)
	structs   structures // types listed so far (structures.go)
	pending   []string   // -C names not found yet, in order
	found     int
	missedIn  bool // the last input lacked a -C name still wanted

	// The suffix pahole's conf was left with by the last layout printed
	// on its own, which --contains_enumerator's enums are printed with.
	suffix    string
	hasSuffix bool
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
		formatter: o.formatter(),
		structs:   structures{seen: make(map[string]int)},
		pending:   append([]string(nil), o.ClassNames...),
	}
}

// Unit prints to w what pahole prints for one input: a BTF Spec (split
// Specs include their base's types, as pahole loads them), one member of a
// BTF archive, or one DWARF compile unit converted by package encode with
// its facts (nil for BTF). It reports whether pahole would stop reading
// further inputs: every -C name has been found.
func (l *Listing) Unit(w io.Writer, spec *btf.Spec, facts *dwarffacts.Facts) (stop bool, err error) {
	return l.NamedUnit(w, "", spec, facts)
}

// NamedUnit is Unit for an input with a name, which CUExcludePrefix
// is compared with: a DWARF compile unit's DW_AT_name, or for BTF the
// path of its file as given.
func (l *Listing) NamedUnit(w io.Writer, name string, spec *btf.Spec, facts *dwarffacts.Facts) (stop bool, err error) {
	if l.unitExcluded(name) {
		return false, nil
	}
	u := newUnit(spec, facts, l.cacheline)
	l.prepare(u, name) // print_options.go
	var b buf
	u.stream(w, &b) // flush.go
	if e := l.opts.ContainsEnumerator; e != "" && l.printEnumWith(u, &b, e) {
		_, err = w.Write(b)
		return false, err
	}
	if len(l.opts.ClassNames) == 0 {
		err = l.printClasses(w, u, &b)
		return l.opts.FirstObjOnly, err
	}
	stop = l.printNamed(u, &b)
	if l.opts.FirstObjOnly && !l.missedIn {
		stop = true
	}
	if u.outErr != nil {
		return stop, u.outErr
	}
	_, err = w.Write(b)
	return stop, err
}

// Finish prints what is printed after every input was read: with Sort,
// the layouts in order; with NrDefinitions, the counts.
func (l *Listing) Finish(w io.Writer) error {
	if l.opts.Sort && l.formatter == formatLayout {
		if err := l.printSorted(w); err != nil {
			return err
		}
	}
	if l.opts.NrDefinitions || l.opts.NrMethods {
		return l.printDefinitions(w) // structures.go
	}
	return nil
}

// Missing returns the first -C name no input had; pahole reports it as
// "pahole: type 'NAME' not found" (and still exits with status 0), except
// when it sorts layouts (Sort).
func (l *Listing) Missing() (string, bool) {
	if l.opts.Sort && l.formatter == formatLayout {
		return "", false
	}
	return l.Unfound()
}

// Unfound returns the first -C name no input had, whatever the options:
// Missing is pahole's report of it, which pahole leaves out when it sorts
// layouts. (Without SkipMissing a listing looks no further in an input
// than a name it lacks, so only the first name is known to be missing.)
func (l *Listing) Unfound() (string, bool) {
	if len(l.pending) == 0 {
		return "", false
	}
	return l.pending[0], true
}

// flushAt is how much output is collected before it is written.
const flushAt = 256 << 10

// printClasses is pahole's print_classes: every struct and union the
// filters select (by default: named, defined, at the top level of its
// unit) and not listed before, in type ID order. With Sort the layouts
// are printed by Finish.
func (l *Listing) printClasses(w io.Writer, u *unit, b *buf) error {
	sorted := l.opts.Sort && l.formatter == formatLayout
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !l.listed(u, id, t, false) {
			continue
		}
		if t.NameOff() != 0 && l.add(u, id, t) {
			continue
		}
		if l.opts.Packable {
			l.printPackable(u, b, id)
			continue
		}
		if sorted {
			continue
		}
		l.formatType(u, b, id)
		u.flush(b) // flush.go
		if u.outErr != nil {
			return u.outErr
		}
	}
	_, err := w.Write(*b)
	*b = (*b)[:0]
	return err
}

// listed reports whether printClasses considers type id of u: a struct or
// union, named unless anonymous ones are asked for, that the filters
// select (filterWith, with lazy).
func (l *Listing) listed(u *unit, id btf.TypeID, t btf.Type, lazy bool) bool {
	if !t.IsStruct() && !t.IsUnion() {
		return false
	}
	if t.NameOff() == 0 && !l.opts.AnonInclude && !l.opts.NestedAnonInclude {
		return false
	}
	return l.filterWith(u, id, t, lazy)
}

// appendStructKey appends to key what pahole compares to tell whether a
// struct or union was printed already: its name, size and number of
// members, and each member's name, bit offset and bitfield size. Names
// end at a NUL (which no name has) and numbers take four bytes, so two
// keys are equal exactly when all of these are.
func appendStructKey(key []byte, u *unit, t btf.Type) []byte {
	key = append(key, t.Name()...)
	key = append(key, 0)
	key = binary.LittleEndian.AppendUint32(key, t.Size())
	key = binary.LittleEndian.AppendUint32(key, uint32(t.Vlen()))
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i)
		off, bits := t.MemberBits(i)
		if m.NameOff != 0 {
			key = append(key, u.spec.String(m.NameOff)...)
		} else {
			key = append(key, 1) // pahole's NULL name, unlike any other
		}
		key = append(key, 0)
		key = binary.LittleEndian.AppendUint32(key, off)
		key = binary.LittleEndian.AppendUint32(key, bits)
	}
	return key
}

// printNamed is the -C part of pahole's printing callback: each name still
// wanted is looked up in this input, in order; a name this input lacks
// ends the search here unless SkipMissing. A type found is printed by the
// formatter, followed by an empty line, or its containers or the
// pointers to it are listed.
func (l *Listing) printNamed(u *unit, b *buf) bool {
	rest := l.pending[:0:0]
	l.missedIn = false
	for i, name := range l.pending {
		// -f looks for declarations too (pointers to a type only declared).
		id := findType(u, name, l.opts.FindPointers)
		if id == 0 {
			if l.opts.SkipMissing {
				rest = append(rest, name)
				continue
			}
			rest = append(rest, l.pending[i:]...)
			l.pending = rest
			l.missedIn = true
			return false
		}
		if l.opts.DefinedIn {
			// pahole prints the unit's name and looks no further in it.
			l.printDefinedIn(u, b, id) // stats.go
			l.pending = append(rest, l.pending[i+1:]...)
			return false
		}
		t := u.spec.Type(id)
		if t.IsStruct() {
			u.class(id).findHoles()
		}
		switch {
		case l.opts.Reorganize:
			if t.IsStruct() {
				l.printReorganized(u, b, id)
			}
		case l.opts.FindContainers:
			l.printContainers(u, b, id)
		case l.opts.FindPointers:
			l.printPointersTo(u, b, id)
		default:
			l.formatType(u, b, id)
			b.Byte('\n')
		}
	}
	l.pending = rest
	return len(l.pending) == 0
}

// findType is pahole's cu__find_type_by_name: the first struct, union,
// enum or typedef of that name that is not only a declaration, or with
// decls, the first of any of them.
func findType(u *unit, name string, decls bool) btf.TypeID {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		switch t.Kind() {
		case btf.KindFwd:
			if !decls {
				continue
			}
		case btf.KindStruct, btf.KindUnion, btf.KindEnum, btf.KindEnum64, btf.KindTypedef:
		default:
			continue
		}
		if t.Name() == name {
			return id
		}
	}
	return 0
}
