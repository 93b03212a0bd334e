package layout

import (
	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// -w/--word_size: pahole's cu_fixup_word_size_iterator, which lays each
// unit's types out again as on a machine with another word size before
// printing them (only when no -C is given, as pahole does). Its sizes
// are pahole's, including what it leaves inconsistent, which pahole 1.31
// prints as it is: members keep the sizes the loader gave them (a long
// still prints 8 bytes), only "long int", "long unsigned int" and
// pointers, followed through one array and typedefs, change the offsets
// of the members after them, and the struct is then re-aligned by
// pahole's class__fixup_alignment heuristics.

// wordSize is the state of a unit laid out again for another word size.
type wordSize struct {
	orig, word uint32
	long       map[btf.TypeID]bool // base types "long int" and "long unsigned int"
	resized    map[btf.TypeID]bool // structs and unions done
	sizeDiff   map[btf.TypeID]uint64
}

// fixupWordSize lays the unit out for word-byte words.
func (u *unit) fixupWordSize(word uint32) {
	// pahole's loader has given every member its size before: build
	// every struct and union now, with the unit's own sizes.
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		if t := u.spec.Type(id); t.IsStruct() || t.IsUnion() {
			u.class(id)
		}
	}
	u.ws = &wordSize{orig: u.sz.PtrSize, word: word,
		long: map[btf.TypeID]bool{}, resized: map[btf.TypeID]bool{}, sizeDiff: map[btf.TypeID]uint64{}}
	u.sz.PtrSize = word
	u.sz.Override = u.wordSized
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		u.fixupTagWordSize(id)
	}
}

// fixupTagWordSize is pahole's tag__fixup_word_size for one type: the
// types a struct or union's body defines first, then the type.
func (u *unit) fixupTagWordSize(id btf.TypeID) {
	t, ok := u.typ(id)
	if !ok || !u.enter() {
		return
	}
	defer u.leave()
	if t.IsStruct() || t.IsUnion() {
		for _, n := range u.facts.NestedIn(id) {
			u.fixupTagWordSize(n.ID)
		}
	}
	switch {
	case t.Kind() == btf.KindInt:
		if n := u.nm.BaseName(t); n == "long int" || n == "long unsigned int" {
			u.ws.long[id] = true
		}
	case t.Kind() == btf.KindStruct:
		u.resizeStruct(id)
	case t.Kind() == btf.KindUnion:
		u.resizeUnion(id)
	}
}

// wordSized answers size and natural alignment questions about base
// types and structs the word size fixup changed.
func (u *unit) wordSized(id btf.TypeID, t btf.Type) (uint64, bool) {
	if u.ws == nil {
		return 0, false
	}
	switch t.Kind() {
	case btf.KindInt:
		if u.ws.long[id] {
			return uint64(u.ws.word), true
		}
	case btf.KindStruct, btf.KindUnion:
		if c := u.classes[id]; u.ws.resized[id] {
			return ctype.StructSize(c.size, len(c.members)), true
		}
	}
	return 0, false
}

// followTypedefs is pahole's tag__follow_typedef from a typedef.
func (u *unit) followTypedefs(id btf.TypeID) (btf.TypeID, bool) {
	for n := 0; n < maxDepth; n++ {
		t, ok := u.typ(id)
		if !ok {
			return 0, false
		}
		if t.Kind() != btf.KindTypedef {
			return id, true
		}
		id = t.Ref()
	}
	return 0, false
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// resizeStruct is pahole's class__resize_LP.
func (u *unit) resizeStruct(id btf.TypeID) {
	ws := u.ws
	if ws.resized[id] {
		return
	}
	ws.resized[id] = true
	c := u.class(id)
	origSize := uint64(c.size)
	wordDiff := absDiff(uint64(ws.orig), uint64(ws.word))
	for i := range c.members {
		mt, ok := u.typ(c.members[i].typ)
		if !ok {
			continue
		}
		tid := c.members[i].typ
		mult := uint64(1)
		if mt.Kind() == btf.KindArray {
			var dims []uint32
			tid, dims = u.array(tid, mt.Array())
			for _, d := range dims {
				mult *= uint64(d)
			}
			if mt, ok = u.typ(tid); !ok {
				continue
			}
		}
		if mt.Kind() == btf.KindTypedef {
			if tid, ok = u.followTypedefs(tid); !ok {
				continue
			}
			mt, _ = u.typ(tid)
		}
		var diff uint64
		switch {
		case mt.Kind() == btf.KindInt:
			if n := u.nm.BaseName(mt); n == "long int" || n == "long unsigned int" {
				diff = wordDiff
			}
		case mt.Kind() == btf.KindPtr:
			diff = wordDiff
		case mt.Kind() == btf.KindStruct:
			u.resizeStruct(tid)
			diff = ws.sizeDiff[tid]
		case mt.Kind() == btf.KindUnion:
			u.resizeUnion(tid)
			diff = ws.sizeDiff[tid]
		}
		diff *= mult
		if diff == 0 {
			continue
		}
		if ws.orig > ws.word {
			c.size -= uint32(diff)
			c.subtractOffsetsFrom(i, uint16(diff))
		} else {
			c.size += uint32(diff)
			c.addOffsetsFrom(i, uint16(diff))
		}
	}
	ws.sizeDiff[id] = absDiff(origSize, uint64(c.size))
	c.holesSearched = false
	c.findHoles()
	u.fixupAlignment(c)
}

// resizeUnion is pahole's union__find_new_size: the largest member.
func (u *unit) resizeUnion(id btf.TypeID) {
	ws := u.ws
	if ws.resized[id] {
		return
	}
	ws.resized[id] = true
	c := u.class(id)
	var max uint64
	for i := range c.members {
		tid := c.members[i].typ
		mt, ok := u.typ(tid)
		if !ok {
			continue
		}
		if mt.Kind() == btf.KindTypedef {
			if tid, ok = u.followTypedefs(tid); !ok {
				continue
			}
			mt, _ = u.typ(tid)
		}
		switch mt.Kind() {
		case btf.KindUnion:
			u.resizeUnion(tid)
		case btf.KindStruct:
			u.resizeStruct(tid)
		}
		if s := u.size(tid); s > max && s != sizeError {
			max = s
		}
	}
	ws.sizeDiff[id] = absDiff(max, uint64(c.size))
	c.size = uint32(max)
}

// subtractOffsetsFrom is pahole's class__subtract_offsets_from: the
// members after member i move back by n bytes, and the padding is
// measured again.
func (c *class) subtractOffsetsFrom(i int, n uint16) {
	for j := i + 1; j < len(c.members); j++ {
		c.members[j].byteOffset -= uint32(n)
		c.members[j].bitOffset -= uint32(n) * 8
	}
	if c.padding != 0 && len(c.members) > 0 {
		last := &c.members[len(c.members)-1]
		p := int64(c.size) - (int64(last.byteOffset) + int64(last.byteSize))
		if p > 0 {
			c.padding = uint16(p)
		} else {
			c.padding = 0
		}
	}
}

// addOffsetsFrom is pahole's class__add_offsets_from.
func (c *class) addOffsetsFrom(i int, n uint16) {
	for j := i + 1; j < len(c.members); j++ {
		c.members[j].byteOffset += uint32(n)
		c.members[j].bitOffset += uint32(n) * 8
	}
}

// fixupAlignment is pahole's class__fixup_alignment: holes of a word or
// more are closed, members of a power-of-two size up to a word are moved
// to a multiple of it, and the struct padded to its biggest base type
// member.
func (u *unit) fixupAlignment(c *class) {
	word := uint64(u.sz.PtrSize)
	var last *member
	for i := range c.members {
		pos := &c.members[i]
		switch {
		case last == nil && pos.byteOffset != 0:
			c.subtractOffsetsFrom(i, uint16(uint64(pos.byteOffset)-pos.byteSize))
			pos.byteOffset, pos.bitOffset = 0, 0
		case last != nil && int64(last.hole) >= int64(word):
			dec := uint64(last.hole) / word * word
			last.hole -= int32(dec)
			if last.hole == 0 {
				c.nrHoles--
			}
			pos.byteOffset -= uint32(dec)
			pos.bitOffset -= uint32(dec * 8)
			c.size -= uint32(dec)
			c.subtractOffsetsFrom(i, uint16(dec))
		default:
			for p2 := word; p2 >= 2; p2 /= 2 {
				rem := uint64(pos.byteOffset) % p2
				if pos.byteSize != p2 {
					continue
				}
				if rem == 0 {
					break
				}
				if uint64(int64(last.hole)) >= rem {
					last.hole -= int32(rem)
					if last.hole == 0 {
						c.nrHoles--
					}
					pos.byteOffset -= uint32(rem)
					pos.bitOffset -= uint32(rem * 8)
					c.subtractOffsetsFrom(i, uint16(rem))
				} else {
					inc := p2 - rem
					if last.hole == 0 {
						c.nrHoles++
					}
					last.hole += int32(inc)
					pos.byteOffset += uint32(inc)
					pos.bitOffset += uint32(inc * 8)
					c.size += uint32(inc)
					c.addOffsetsFrom(i, uint16(inc))
				}
			}
		}
		last = pos
	}
	if last == nil {
		return
	}
	m := u.firstBiggestMember(c) // biggest.go
	if m == nil || m.byteSize == 0 {
		return
	}
	unpadded := uint64(last.byteOffset) + last.byteSize
	if rem := unpadded % m.byteSize; rem != 0 {
		c.padding = uint16(m.byteSize - rem)
		c.size = uint32(unpadded + uint64(c.padding))
	}
}
