package layout

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
)

// -E (expand_types) and -p (expand_pointers): what pahole's type__fprintf
// does to a member's type before printing it.
//
// With -p, pointers are followed to what they point to, the declarator
// gets one '*' per pointer followed, and the pointed-to type is printed
// in place (a struct, union or enum with its body) unless it is already
// being printed further out, which is how pahole stops at a struct that
// points to itself. Offsets are not printed for what a pointer points to.
// Note pahole's quirk, kept: with -p a type that is not a pointer is not
// expanded even with -E.
//
// With -E (or after -p followed a pointer), typedefs are followed and
// their names printed in a comment before the type, "/* typedef a -> b */
// ", and named structs, unions and enums are printed in place.

// expansion is the type to print after the expansions, and how.
type expansion struct {
	t                     btf.Type
	id                    btf.TypeID
	name                  string
	named                 bool
	expandTypes           bool
	suppressOffsetComment bool
	counted               btf.TypeID // its recursion count was raised (undo when done)
	typedefs              btf.TypeID // the first typedef followed, if any
}

// expand applies -p and -E to a type about to be printed with the
// declarator name. ok is false when a type is missing: the error has been
// printed.
func (u *unit) expand(b *buf, t btf.Type, id btf.TypeID, name string, named bool, c *conf) (e expansion, ok bool) {
	e = expansion{t: t, id: id, name: name, named: named,
		expandTypes: c.expandTypes, suppressOffsetComment: c.suppressOffsetComment}
	if c.expandPointers {
		n := 0
		for e.t.Kind() == btf.KindPtr && e.t.Ref() != 0 {
			next, ok := u.typ(e.t.Ref())
			if !ok || n == maxDepth {
				u.typeNotFound(b, e.name, e.named, *c)
				return e, false
			}
			e.t, e.id = next, e.t.Ref()
			n++
		}
		if n > 0 {
			// pahole's buffer for the starred name holds 255 bytes.
			if len(e.name)+n >= 256 {
				u.typeNotFound(b, e.name, e.named, *c)
				return e, false
			}
			e.name, e.named = strings.Repeat("*", n)+e.name, true
		}
		e.expandTypes = n > 0
		if !e.suppressOffsetComment {
			e.suppressOffsetComment = n > 0
		}
		if u.recursion[e.id] != 0 {
			e.expandTypes = false
		}
		if e.expandTypes {
			if max := u.maxExpansions(); max > 0 && u.expansions >= max {
				e.expandTypes = false // printed as a pointer
				u.cut = true
			} else {
				u.expansions++
			}
		}
		u.raiseRecursion(e.id)
		e.counted = e.id
	}
	if e.expandTypes {
		first := true
		for steps := 0; e.t.Kind() == btf.KindTypedef; steps++ {
			if first {
				b.Str("/* typedef ")
				e.typedefs = e.id
			} else {
				b.Str(" -> ")
			}
			b.Str(e.t.Name())
			first = false
			next, ok := u.typ(e.t.Ref())
			if !ok || steps == maxDepth {
				u.typeNotFound(b, e.name, e.named, *c)
				return e, false
			}
			e.t, e.id = next, e.t.Ref()
		}
		if !first {
			b.Str(" */ ")
		}
	}
	return e, true
}

// raiseRecursion counts one more printing of type id in progress
// (pahole's recursivity_level); lowerRecursion undoes it.
func (u *unit) raiseRecursion(id btf.TypeID) {
	if u.recursion == nil {
		u.recursion = make(map[btf.TypeID]int)
	}
	u.recursion[id]++
}

func (u *unit) lowerRecursion(id btf.TypeID) { u.recursion[id]-- }

// maxExpansions is the bound on pointed-to types printed in place in one
// top-level type (Options.MaxPointerExpansions), 0 for none.
func (u *unit) maxExpansions() int {
	switch {
	case u.opts == nil || u.opts.MaxPointerExpansions == 0:
		return DefaultMaxPointerExpansions
	case u.opts.MaxPointerExpansions < 0:
		return 0
	}
	return u.opts.MaxPointerExpansions
}
