package frombtf

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/internal/dedupinternal"
)

// rebuild returns a standalone copy of s (s's own types) without the
// types that alias marks: alias[id-first] is 0 for a kept type, else
// the type that references to id are redirected to (followed until a kept
// type; noType for a type nothing kept refers to). Kept types keep their
// order and get dense IDs from 1. edit, when not nil, may change a kept
// type's record before its references are renumbered: it gets the old
// ID and returns the header words and trailing words to write. The string
// table is shared, not copied.
func rebuild(s *btf.Spec, alias []btf.TypeID, edit func(id btf.TypeID, name, info, sizeType uint32, ext []uint32) (uint32, uint32, uint32, []uint32)) *btf.Spec {
	rn := renumber(s, alias, 1, nil)
	kept, words := 0, 0
	for i := range rn.newID {
		if alias[i] == 0 {
			_, _, _, ext := s.RawType(s.FirstID() + btf.TypeID(i))
			kept++
			words += len(ext)
		}
	}
	out := btf.NewSpec()
	out.SetRawStrings(s.RawStrings())
	out.Reserve(kept, words)
	var buf []uint32
	fix := func(p *uint32) { *p, _ = rn.resolve(*p) }
	var name, info, st uint32 // declared once, outside the loop: their addresses escape to the callbacks
	var ext []uint32
	for i := range rn.newID {
		if alias[i] != 0 {
			continue
		}
		id := s.FirstID() + btf.TypeID(i)
		name, info, st, ext = s.RawType(id)
		buf = append(buf[:0], ext...)
		if edit != nil {
			name, info, st, buf = edit(id, name, info, st, buf)
		}
		btf.ForEachTypeRef(info, &st, buf, fix)
		out.AddRaw(name, info, st, buf...)
	}
	return out
}

// renumbering is a member's types renumbered: newID (indexed by old ID -
// first) is a kept type's new ID, 0 for a dropped type's.
type renumbering struct {
	first, n uint32
	alias    []btf.TypeID // nil: every type kept
	newID    []uint32
}

// renumber gives each type of s that alias keeps (nil: every type) its
// new ID, counting from next (newID is made in buf's memory when it has
// room).
func renumber(s *btf.Spec, alias []btf.TypeID, next uint32, buf []uint32) renumbering {
	r := renumbering{first: uint32(s.FirstID()), n: uint32(s.NumTypes()), alias: alias}
	r.newID = scratch(buf, int(r.n))
	for i := range r.newID {
		if alias == nil || alias[i] == 0 {
			r.newID[i] = next
			next++
		}
	}
	return r
}

// ref renumbers *p, inline, when it refers to a kept type (the common
// case) and reports whether it did; resolve does the others.
func (r *renumbering) ref(p *uint32) bool {
	i := *p - r.first
	if *p == 0 || i >= r.n || r.alias != nil && r.alias[i] != 0 {
		return false
	}
	*p = r.newID[i]
	return true
}

// resolve maps a reference: to a kept type's new ID, a dropped type's
// alias's (followed), 0 for void or noType; a reference outside the
// member (malformed) is returned as it is, with ok false.
func (r *renumbering) resolve(id uint32) (uint32, bool) {
	for hops := uint32(0); id != 0; hops++ {
		i := id - r.first
		if i >= r.n || hops > r.n {
			return id, false // outside s (malformed): left for the caller
		}
		if r.alias == nil || r.alias[i] == 0 {
			return r.newID[i], true
		}
		if r.alias[i] == noType {
			return 0, true
		}
		id = uint32(r.alias[i])
	}
	return 0, true
}

// groupBuilder appends the members of a group to one dedup.Builder, as
// dedup.Merge would concatenate them (IDs shifted, strings interned in
// first-reference order), each member's kept types only.
type groupBuilder struct {
	b    *dedup.Builder
	strs dedupinternal.StringMap // the member's string offsets into b's table
	buf  []uint32
	// Memory reused from member to member: add's new IDs, extract's
	// alias table, FUNC_PROTO marks, FUNCs and parameter words.
	newID     []uint32
	alias     []btf.TypeID
	protoUsed []bool
	funcs     []funcAt
	pairs     []uint32
}

// scratch returns a zeroed slice of length n, buf's memory when it has
// room.
func scratch[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// add appends the types of s that alias keeps (nil: all) and returns
// their IDs in the Builder (indexed by ID - first; 0 for a dropped type).
func (g *groupBuilder) add(s *btf.Spec, alias []btf.TypeID) ([]uint32, error) {
	dedupinternal.NoteHeader(g.b, s)
	next := uint32(s.NextID())
	rn := renumber(s, alias, uint32(g.b.NextID()), g.newID)
	newID := rn.newID
	g.newID = newID
	if g.strs == nil {
		g.strs = dedupinternal.NewStringMap(g.b)
	}
	g.strs.Reset(s)
	var bad error
	fix := func(p *uint32) {
		r, ok := rn.resolve(*p)
		if !ok && bad == nil {
			bad = fmt.Errorf("refers to type %d, past the last type %d", r, next-1)
		}
		*p = r
	}
	intern := func(p *uint32) {
		if bad == nil {
			bad = g.strs.Map(p)
		}
	}
	var name, info, st uint32 // declared once, outside the loop: their addresses escape to the callbacks
	var ext []uint32
	for i := range newID {
		if alias != nil && alias[i] != 0 {
			continue
		}
		id := s.FirstID() + btf.TypeID(i)
		name, info, st, ext = s.RawType(id)
		g.buf = append(g.buf[:0], ext...)
		// The common kinds written out, in the order
		// btf.ForEachStringRef visits names; a reference to a kept type
		// of s is renumbered inline (rn.ref), others by fix.
		switch btf.KindOf(info) {
		case btf.KindStruct, btf.KindUnion:
			intern(&name)
			for k := 0; k+2 < len(g.buf); k += 3 {
				intern(&g.buf[k])
				if !rn.ref(&g.buf[k+1]) {
					fix(&g.buf[k+1])
				}
			}
		case btf.KindPtr, btf.KindTypedef, btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag:
			if !rn.ref(&st) {
				fix(&st)
			}
			intern(&name)
		case btf.KindInt, btf.KindFwd, btf.KindFloat:
			intern(&name)
		case btf.KindArray:
			for k := 0; k < 2; k++ {
				if !rn.ref(&g.buf[k]) {
					fix(&g.buf[k])
				}
			}
			intern(&name)
		case btf.KindFuncProto:
			if !rn.ref(&st) {
				fix(&st)
			}
			for k := 1; k < len(g.buf); k += 2 {
				if !rn.ref(&g.buf[k]) {
					fix(&g.buf[k])
				}
			}
			intern(&name)
			for k := 0; k < len(g.buf); k += 2 {
				intern(&g.buf[k])
			}
		default:
			btf.ForEachTypeRef(info, &st, g.buf, fix)
			btf.ForEachStringRef(info, &name, g.buf, intern)
		}
		if bad != nil {
			return nil, fmt.Errorf("type [%d]: %w", id, bad)
		}
		g.b.AddRaw(name, info, st, g.buf...)
	}
	return newID, nil
}

// noType in an alias table marks a dropped type that nothing kept
// refers to (a reference to it becomes void).
const noType = ^btf.TypeID(0)
