package cdump

import (
	"fmt"
	"strconv"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// Ordering and emitting state of one type, as the topological walk sees it.
const (
	notOrdered uint8 = iota
	ordering
	ordered
)

const (
	notEmitted uint8 = iota
	emitting
	emitted
)

// typeState is the per-type bookkeeping of a dumper.
type typeState struct {
	emit         uint8
	fwdEmitted   bool
	nameResolved bool
	renamed      bool // names holds the type's ___N name
}

// dumper holds the emitting state of one C dump over one Spec. Types are
// emitted at most once per dumper, so the roots share the emitted set,
// exactly as one libbpf btf_dump object does across btf_dump__dump_type
// calls. The order comes from an orderer (order.go).
type dumper struct {
	spec  *btf.Spec
	n     int // one past the last type ID
	ptrSz int

	fixLayout bool // Options.FixLayout

	st    []typeState
	names map[btf.TypeID]string // names made unique with a ___N suffix

	typeNames  map[string]int // struct/union/enum tags
	identNames map[string]int // typedef names and enumerators

	alignMemo []int16 // btf__align_of results + 1, 0 = not computed
	sizeMemo  []int32 // btf__resolve_size results + 2, 0 = not computed

	stack  []btf.Type // shared declaration stack
	depth  int        // nesting of emitType (cycle guard)
	inline int        // nesting of emitStructDef (anonymous types printed in place)

	steps    int // emitType calls so far
	maxSteps int // bound on steps (see newDumper)

	written int   // bytes already passed on to the writer
	err     error // set when the output outgrew maxOutput

	out []byte
}

func newDumper(spec *btf.Spec, ptrSz int) *dumper {
	n := int(spec.NextID())
	d := &dumper{
		spec:      spec,
		n:         n,
		st:        make([]typeState, n),
		names:     make(map[btf.TypeID]string),
		alignMemo: make([]int16, n),
		sizeMemo:  make([]int32, n),
	}
	if ptrSz != 4 && ptrSz != 8 {
		ptrSz = int(ctype.PointerSize(spec)) // libbpf's guess
	}
	d.ptrSz = ptrSz
	d.st[0].emit = emitted
	// Anonymous types are walked at each use, so malformed BTF can make the
	// walk exponential; kernel BTF takes about 1.1 steps per type.
	d.maxSteps = 16*n + 1<<20
	return d
}

// sizeNameMaps makes the name maps, sized for the names the Spec has.
func (d *dumper) sizeNameMaps(tags, idents int) {
	d.typeNames = make(map[string]int, tags)
	d.identNames = make(map[string]int, idents)
}

// valid reports whether id is a type of the Spec (void included).
func (d *dumper) valid(id btf.TypeID) bool { return int(id) < d.n }

// errLoop is a cycle of types that C cannot express.
type errLoop struct{ id btf.TypeID }

func (e errLoop) Error() string {
	return fmt.Sprintf("unsatisfiable type cycle at type [%d]", e.id)
}

// maxDepth bounds the nesting of definitions the dump recurses through
// (typedefs of typedefs, structs holding structs by value, function
// prototypes): deeper BTF is an error (errDeep), whether it loops or
// not. It is well above what a valid chain of 100,000 typedefs needs
// and keeps the stack to some tens of MiB. Chains of pointers,
// modifiers and arrays are followed without recursion and without this
// bound (a chain longer than the number of types is a loop: errLoop).
const maxDepth = 1 << 17

// maxInline bounds the nesting of anonymous structs and unions printed
// inside each other, each level a few stack frames.
const maxInline = 1 << 14

// errDeep is BTF whose definitions nest deeper than the dump follows.
type errDeep struct {
	id    btf.TypeID
	limit int
}

func (e errDeep) Error() string {
	return fmt.Sprintf("type [%d]: types nested more than %d deep (through typedefs, struct members, function prototypes or anonymous structs)", e.id, e.limit)
}

// fail records err as the dump's error, unless there is one already.
func (d *dumper) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// isBlacklisted: __builtin_va_list is the compiler's own; never redefine it.
func (d *dumper) isBlacklisted(id btf.TypeID) bool {
	t := d.spec.Type(id)
	return t.NameOff() != 0 && t.Name() == "__builtin_va_list"
}

// emitType prints the definition of id (top level when contID is 0) after
// whatever forward declarations its members need. contID is the named
// struct or union being defined around it, whose own forward declaration is
// then unnecessary.
func (d *dumper) emitType(id btf.TypeID, contID btf.TypeID) {
	// Pointers, modifiers and arrays only lead on to the type they
	// refer to: follow them in a loop, however long the chain.
	for n := 0; ; n++ {
		if !d.valid(id) {
			return
		}
		if d.steps++; d.steps > d.maxSteps {
			d.fail(fmt.Errorf("cdump: more than %d steps for %d types (anonymous types nest exponentially?)", d.maxSteps, d.n))
			return
		}
		if n >= d.n {
			d.fail(errLoop{id}) // a reference cycle without a definition
			return
		}
		t := d.spec.Type(id)
		switch t.Kind() {
		case btf.KindPtr, btf.KindVolatile, btf.KindConst, btf.KindRestrict, btf.KindTypeTag:
			id = t.Ref()
			continue
		case btf.KindArray:
			id = btf.TypeID(t.Extra()[0])
			continue
		}
		break
	}
	if d.depth > maxDepth {
		d.fail(errDeep{id, maxDepth})
		return
	}
	d.depth++
	defer func() { d.depth-- }()
	s := &d.st[id]
	if s.emit == emitted {
		return
	}
	topLevel := contID == 0
	t := d.spec.Type(id)
	k := t.Kind()

	if s.emit == emitting {
		if s.fwdEmitted {
			return
		}
		switch k {
		case btf.KindStruct, btf.KindUnion:
			if id == contID || t.NameOff() == 0 {
				return
			}
			d.emitStructFwd(id, t)
			d.str(";\n\n")
			s.fwdEmitted = true
		case btf.KindTypedef:
			if !d.isBlacklisted(id) {
				d.emitTypedefDef(id, t, 0)
				d.str(";\n\n")
			}
			s.fwdEmitted = true
		}
		return
	}

	switch k {
	case btf.KindInt:
		d.emitMissingAliases(id)
		s.emit = emitted
	case btf.KindEnum, btf.KindEnum64:
		if topLevel {
			d.emitEnumDef(id, t, 0)
			d.str(";\n\n")
		}
		s.emit = emitted
	case btf.KindFwd:
		d.emitFwdDef(id, t)
		d.str(";\n\n")
		s.emit = emitted
	case btf.KindTypedef:
		s.emit = emitting
		d.emitType(t.Ref(), id)
		s = &d.st[id]
		if !s.fwdEmitted && !d.isBlacklisted(id) {
			d.emitTypedefDef(id, t, 0)
			d.str(";\n\n")
		}
		s.emit = emitted
	case btf.KindStruct, btf.KindUnion:
		s.emit = emitting
		named := t.NameOff() != 0
		if topLevel || !named {
			newCont := id
			if !named {
				newCont = contID
			}
			ext := t.Extra()
			for i := 1; i < len(ext); i += 3 {
				d.emitType(btf.TypeID(ext[i]), newCont)
			}
		} else if !s.fwdEmitted && id != contID {
			d.emitStructFwd(id, t)
			d.str(";\n\n")
			s.fwdEmitted = true
		}
		if topLevel {
			d.emitStructDef(id, t, 0)
			d.str(";\n\n")
			s.emit = emitted
		} else {
			s.emit = notEmitted
		}
	case btf.KindFuncProto:
		d.emitType(t.Ref(), contID)
		ext := t.Extra()
		for i := 1; i < len(ext); i += 2 {
			d.emitType(btf.TypeID(ext[i]), contID)
		}
	}
}

// maxOutputBase and maxOutputPerType bound the header's size. Anonymous
// types are printed inline at each use, so malformed BTF where anonymous
// structs nest in several members each grows the output exponentially;
// real headers take about 25 bytes per type.
var (
	maxOutputBase    = 32 << 20
	maxOutputPerType = 256
)

// overflow reports (and records as d.err) whether the output outgrew
// maxOutput.
func (d *dumper) overflow() bool {
	if d.err != nil {
		return true
	}
	if max := maxOutputBase + maxOutputPerType*d.n; d.written+len(d.out) > max {
		d.err = fmt.Errorf("cdump: header would exceed %d MiB for %d types (anonymous types nest exponentially?)", max>>20, d.n)
	}
	return d.err != nil
}

// Output helpers.

func (d *dumper) str(s string) { d.out = append(d.out, s...) }

func (d *dumper) indent(lvl int) {
	if lvl > maxIndent {
		lvl = maxIndent
	}
	for i := 0; i < lvl; i++ {
		d.out = append(d.out, '\t')
	}
}

// maxIndent is the deepest indentation libbpf prints; deeper levels are
// printed at this depth.
const maxIndent = 13

func (d *dumper) int(v int64)   { d.out = strconv.AppendInt(d.out, v, 10) }
func (d *dumper) uint(v uint64) { d.out = strconv.AppendUint(d.out, v, 10) }

// Names.

// nameDups counts one more occurrence of name in m and returns the count.
func nameDups(m map[string]int, name string) int {
	n := m[name] + 1
	m[name] = n
	return n
}

// resolveName returns the name id is printed with: its own name the first
// time that name is seen in m, name___N for the N-th distinct type with it.
func (d *dumper) resolveName(id btf.TypeID, m map[string]int) string {
	t := d.spec.Type(id)
	if t.NameOff() == 0 {
		return ""
	}
	s := &d.st[id]
	orig := t.Name()
	if s.nameResolved {
		if s.renamed {
			return d.names[id]
		}
		return orig
	}
	s.nameResolved = true
	if t.Kind() == btf.KindFwd || (t.Kind() == btf.KindEnum && t.Vlen() == 0) {
		return orig
	}
	if n := nameDups(m, orig); n > 1 {
		nn := orig + "___" + strconv.Itoa(n)
		if len(nn) > 255 { // libbpf formats into a 256-byte buffer
			nn = nn[:255]
		}
		d.names[id] = nn
		s.renamed = true
		return nn
	}
	return orig
}

func (d *dumper) typeName(id btf.TypeID) string  { return d.resolveName(id, d.typeNames) }
func (d *dumper) identName(id btf.TypeID) string { return d.resolveName(id, d.identNames) }

// missingAliases are GCC-internal base types (Arm SIMD) that C compilers do
// not know, with the standard types they stand for.
var missingAliases = [...][2]string{
	{"__Poly8_t", "unsigned char"},
	{"__Poly16_t", "unsigned short"},
	{"__Poly64_t", "unsigned long long"},
	{"__Poly128_t", "unsigned __int128"},
}

func (d *dumper) emitMissingAliases(id btf.TypeID) {
	name := d.typeName(id)
	for _, a := range missingAliases {
		if name == a[0] {
			d.str("typedef ")
			d.str(a[1])
			d.str(" ")
			d.str(name)
			d.str(";\n\n")
			return
		}
	}
}
