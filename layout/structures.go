package layout

import (
	"io"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// pahole's "structures" tree: the named structs and unions already
// listed, so that a type defined alike in many inputs (DWARF compile
// units) is listed once, and, with --sort, the layouts to print in order
// once every input was read.

// structure is one entry: a type of a unit.
type structure struct {
	u  *unit
	id btf.TypeID
}

// structures is the tree.
type structures struct {
	seen map[string]int // appendStructKey of each entry: its index in defs
	key  []byte         // scratch for add's key
	// defs counts the inputs that define each entry (pahole's nr_files,
	// which -T prints), in the order added.
	defs []definition
	// With --sort pahole's comparison never finds two types with members
	// equal, so every one is kept, in the order added; when two were
	// alike (needResort) they are sorted again comparing member types
	// too, and duplicates dropped then.
	sorted []structure
}

// definition is a type's name and how many inputs define it alike.
type definition struct {
	name string
	n    uint32
}

// add is pahole's structures__add: it reports whether an equal type was
// added before (and counts one more definition of it); if not the type is
// added.
func (l *Listing) add(u *unit, id btf.TypeID, t btf.Type) (existing bool) {
	s := &l.structs
	key := appendStructKey(s.key[:0], u, t)
	s.key = key
	i, dup := s.seen[string(key)]
	if dup && u.nestedBetweenMembers(id, t) {
		dup = false // never found: see nestedBetweenMembers
	}
	// With Sort, pahole's comparison (type__compare) calls two types
	// alike only when neither has members; otherwise it orders the new
	// one first.
	if dup && (!l.opts.Sort || t.Vlen() == 0) {
		s.defs[i].n++
		return true
	}
	if _, seen := s.seen[string(key)]; !seen {
		s.seen[string(key)] = len(s.defs)
	}
	s.defs = append(s.defs, definition{t.Name(), 1})
	if l.opts.Sort {
		s.sorted = append(s.sorted, structure{u, id})
	}
	return false
}

// printDefinitions is pahole's print_stats with nr_definitions_formatter
// (-T): each entry's name and count.
func (l *Listing) printDefinitions(w io.Writer) error {
	var b buf
	sep := l.opts.separator()
	for _, d := range l.structs.defs {
		b.Str(d.name)
		b.Byte(sep)
		b.Uint(uint64(d.n))
		b.Byte('\n')
		if len(b) >= flushAt {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return err
}

// printSorted is pahole's print_ordered_classes: the layouts of the types
// added, ordered by name, size, number of members and members; when two
// compare alike (the same type from several inputs), ordered instead by
// name and members, their types included, each distinct one once.
func (l *Listing) printSorted(w io.Writer) error {
	added := l.structs.sorted // in the order added
	l.structs.sorted = nil
	list := append([]structure(nil), added...)
	sort.SliceStable(list, func(i, j int) bool { return compareTypes(list[i], list[j]) < 0 })
	resort := false
	for i := 1; i < len(list); i++ {
		if compareTypes(list[i-1], list[i]) == 0 {
			resort = true
			break
		}
	}
	if resort {
		list = distinctByMembers(added)
		sort.SliceStable(list, func(i, j int) bool { return compareMemberTypes(list[i], list[j]) < 0 })
	}
	var b buf
	for _, s := range list {
		l.formatLayout(s.u, &b, s.id)
		if len(b) >= flushAt {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return err
}

// distinctByMembers keeps the first of each set of types that
// compareMemberTypes calls alike.
func distinctByMembers(list []structure) []structure {
	byName := make(map[string][]structure)
	var out []structure
next:
	for _, s := range list {
		name := s.u.spec.Type(s.id).Name()
		for _, k := range byName[name] {
			if compareMemberTypes(k, s) == 0 {
				continue next
			}
		}
		byName[name] = append(byName[name], s)
		out = append(out, s)
	}
	return out
}

func sign(n int64) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// compareTypes is pahole's type__compare without its --sort twist: name,
// size, number of members, then each member's name (when both have one),
// bit offset and bitfield size.
func compareTypes(a, b structure) int {
	ta, tb := a.u.spec.Type(a.id), b.u.spec.Type(b.id)
	if r := strings.Compare(ta.Name(), tb.Name()); r != 0 {
		return r
	}
	if r := sign(int64(int32(ta.Size())) - int64(int32(tb.Size()))); r != 0 {
		return r
	}
	if r := sign(int64(uint16(ta.Vlen())) - int64(uint16(tb.Vlen()))); r != 0 {
		return r
	}
	ma, mb := a.u.class(a.id).members, b.u.class(b.id).members
	for i := range ma {
		if i >= len(mb) {
			break
		}
		if r := compareMember(&ma[i], &mb[i]); r != 0 {
			return r
		}
	}
	return 0
}

func compareMember(ma, mb *member) int {
	if ma.name != "" && mb.name != "" {
		if r := strings.Compare(ma.name, mb.name); r != 0 {
			return r
		}
	}
	if r := sign(int64(int32(ma.bitOffset)) - int64(int32(mb.bitOffset))); r != 0 {
		return r
	}
	return sign(int64(ma.bitfieldSize) - int64(mb.bitfieldSize))
}

// compareMemberTypes is pahole's type__compare_members_types: name, then
// each member as compareTypes does, and the names of the members' types.
// Size and number of members are not compared; a type without members is
// alike any other of its name.
func compareMemberTypes(a, b structure) int {
	ta, tb := a.u.spec.Type(a.id), b.u.spec.Type(b.id)
	if r := strings.Compare(ta.Name(), tb.Name()); r != 0 {
		return r
	}
	ma, mb := a.u.class(a.id).members, b.u.class(b.id).members
	for i := range ma {
		if i >= len(mb) {
			// pahole reads past b's members here; say a is larger.
			return 1
		}
		_, oka := a.u.typ(ma[i].typ)
		_, okb := b.u.typ(mb[i].typ)
		if oka && !okb && mb[i].name == "" {
			return 0
		}
		if !oka || !okb {
			if oka {
				return 1
			}
			return -1
		}
		if r := compareMember(&ma[i], &mb[i]); r != 0 {
			return r
		}
		if r := strings.Compare(a.u.tagName(ma[i].typ, 1024), b.u.tagName(mb[i].typ, 1024)); r != 0 {
			return r
		}
	}
	return 0
}

// nestedBetweenMembers reports whether the struct or union id of unit u
// (DWARF) has a type defined in its body between two of its data
// members. pahole's structures__add then never finds it among the types
// listed before, so it is listed again in every unit that has it: its
// comparison (type__compare_members) walks the listed type's members and
// the new type's entries side by side, stepping the latter with
// class_member__next, which does not skip the nested type, and compares
// a member with that type read as a member. clang puts the anonymous
// structs and unions of a C type in its body, after the member that uses
// them (union rcu_special { struct {...} b; u32 s; }: listed once per
// unit); gcc puts them at the top level of the unit, and BTF has no
// nesting, so both are listed once.
func (u *unit) nestedBetweenMembers(id btf.TypeID, t btf.Type) bool {
	n := t.Vlen()
	for _, in := range u.facts.NestedIn(id) {
		if in.After >= 1 && in.After < n {
			return true
		}
	}
	return false
}
