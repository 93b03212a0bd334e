package layout

import (
	"github.com/btfkit/btfkit/btf"
)

// Listings that search instead of printing layouts: the containers of a
// type (-i, -d), the members pointing to it (-f), the enum with an
// enumerator (--contains_enumerator).

// maxContainerIndent is how many spaces pahole can indent a container
// with: it cuts a string of 127 spaces to twice the depth.
const maxContainerIndent = 127

// printContainers is pahole's print_containers: each named struct or
// union the filters select that has a member of type contained, once
// over all inputs; with Recursive, under each, indented, the struct and
// union types of its members that have such a member themselves.
func (l *Listing) printContainers(u *unit, b *buf, contained btf.TypeID) {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !t.IsStruct() && !t.IsUnion() || t.NameOff() == 0 {
			continue
		}
		if !l.filter(u, id, t) {
			continue
		}
		l.printContainer(u, b, id, contained, 0)
	}
}

// printContainer is pahole's type__print_containers.
func (l *Listing) printContainer(u *unit, b *buf, id, contained btf.TypeID, depth int) {
	t := u.spec.Type(id)
	if nrMembersOfType(t, contained) == 0 {
		return
	}
	if depth == 0 && l.add(u, id, t) {
		return // listed from an earlier input
	}
	for i := 0; i < min(depth*2, maxContainerIndent); i++ {
		b.Byte(' ')
	}
	b.Str(cName(t))
	b.Byte('\n')
	if !l.opts.Recursive || !u.enter() {
		return
	}
	defer u.leave()
	for i := 0; i < t.Vlen(); i++ {
		m := t.Member(i).Type
		if mt, ok := u.typ(m); ok && (mt.IsStruct() || mt.IsUnion()) {
			l.printContainer(u, b, m, contained, depth+1)
		}
	}
}

// nrMembersOfType is pahole's type__nr_members_of_type: how many members
// have exactly that type (not through typedefs or qualifiers).
func nrMembersOfType(t btf.Type, id btf.TypeID) int {
	if !t.IsStruct() && !t.IsUnion() {
		return 0
	}
	n := 0
	for i := 0; i < t.Vlen(); i++ {
		if t.Member(i).Type == id {
			n++
		}
	}
	return n
}

// printPointersTo is pahole's print_structs_with_pointer_to: for each
// named struct or union the filters select, "name: member" for each of
// its members that is a pointer to the type target; a type listed from
// an earlier input (or for an earlier -C name) is not listed again.
func (l *Listing) printPointersTo(u *unit, b *buf, target btf.TypeID) {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !t.IsStruct() && !t.IsUnion() || t.NameOff() == 0 {
			continue
		}
		if !l.filter(u, id, t) {
			continue
		}
		looked := false
		for i := 0; i < t.Vlen(); i++ {
			m := t.Member(i)
			mt, ok := u.typ(m.Type)
			if !ok || mt.Kind() != btf.KindPtr || mt.Ref() != target {
				continue
			}
			if !looked {
				if l.add(u, id, t) {
					break
				}
				looked = true
			}
			b.Str(t.Name())
			b.Str(": ")
			if m.NameOff == 0 {
				b.Str("(null)")
			} else {
				b.Str(t.Spec().String(m.NameOff))
			}
			b.Byte('\n')
		}
	}
}

// printEnumWith is pahole's print_enumeration_with_enumerator: the
// unit's first enum with an enumerator of that name, as its own line
// (no ';'); false when the unit has none.
func (l *Listing) printEnumWith(u *unit, b *buf, name string) bool {
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !t.IsEnum() {
			continue
		}
		for i := 0; i < t.Vlen(); i++ {
			if t.Spec().String(t.Enum(i).NameOff) == name {
				c := conf{hex: l.opts.Hex, suffix: l.suffix, hasSuffix: l.hasSuffix}
				u.printEnum(b, t, c)
				b.Byte('\n')
				return true
			}
		}
	}
	return false
}
