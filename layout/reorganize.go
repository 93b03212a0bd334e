package layout

// pahole's --reorganize (dwarves_reorganize.c's class__reorganize as
// pahole 1.31 builds it, without BITFIELD_REORG_ALGORITHMS_ENABLED): a
// copy of a struct whose members are moved into the holes of others, with
// pahole's arithmetic and its integer widths, so that the printed result
// and the bytes "saved" are pahole's, quirks included, with one
// exception: pahole computes a moved member's offset in 16 bits, which
// corrupts structs of 64 KiB and more (members overlap, rcu_state "saves"
// 328,212 of its 334,016 bytes, pglist_data never stops moving members);
// here it is 32 bits, as offsets are everywhere else. The other deviation,
// a larger result replaced by the original, is the printer's
// (printReorganized).

// reorgStep is how much class__reorganize prints while it works:
// nothing, each move (pahole -V), or each move and the struct after it
// (pahole -S).
type reorgStep int

const (
	reorgQuiet reorgStep = iota
	reorgMoves
	reorgLayouts
)

// maxReorgMoves bounds the moves of one reorganization. pahole restarts
// its search after every move and has no bound; no kernel struct needs
// more than a few hundred, and a struct on which the search would go
// round in circles stops here instead of hanging.
const maxReorgMoves = 1 << 16

// tagSize is pahole's tag__size for a struct: its size, but 0 for a
// struct of one byte without members (the empty base rule).
func (c *class) tagSize() uint64 {
	if c.size == 1 && len(c.members) == 0 {
		return 0
	}
	return uint64(c.size)
}

// cloneClass is pahole's class__clone: the struct with everything pahole
// computed about it (holes, padding, inferred attributes) and its own copy
// of the members. A clone is no type of the unit (id 0), and, as pahole
// copies only the members, it has none of the types DWARF from clang
// defines inside the struct's body.
func cloneClass(orig *class) *class {
	c := *orig
	c.id = 0
	c.members = append([]member(nil), orig.members...)
	c.reorganized = nil
	return &c
}

// reorganize is pahole's class__reorganize on a clone: until nothing moves,
// recompute the padding from the most aligned member, then move a later
// member (or the last one, when there is padding) into a hole it fits,
// then move members from the tail into holes. Bitfields never move.
func (u *unit) reorganize(c *class, steps reorgStep, b *buf) {
	c.findHoles()
	addr := uint64(u.sz.PtrSize)
	for moves := 0; moves < maxReorgMoves; moves++ {
		if len(c.members) == 0 {
			return
		}
		last := len(c.members) - 1
		u.reorgPadding(c, addr)
		moved := false
		for i := 0; i < len(c.members) && !moved; i++ {
			hole := c.members[i].hole
			if hole == 0 {
				continue
			}
			// A hole's size is a size_t in pahole: a negative hole
			// (overlapping members) fits anything.
			fits := uint64(int64(hole))
			// Not the next member: its offset may be an explicit
			// alignment (____cacheline_aligned_in_smp).
			if bro := findNextHoleOfSize(c, i, fits); bro >= 0 && bro-1 != i {
				moved = u.moveMember(c, i, bro, false, steps, b)
			}
			lm := &c.members[last]
			if !moved && c.padding > 0 && i != last && lm.byteSize != 0 && lm.byteSize <= fits {
				moved = u.moveMember(c, i, last, true, steps, b)
			}
		}
		if moved {
			continue
		}
		if c.nrHoles == 0 {
			return
		}
		for i := 0; i < len(c.members) && !moved; i++ {
			hole := c.members[i].hole
			if hole == 0 {
				continue
			}
			if bro := findLastMemberOfSize(c, i, uint64(int64(hole))); bro >= 0 && bro-1 != i {
				moved = u.moveMember(c, i, bro, false, steps, b)
			}
		}
		if !moved {
			return
		}
	}
}

// reorgPadding is the start of each round of class__reorganize: the
// alignment is the largest member-plus-hole up to a word, rounded up to
// even, and the padding makes the end a multiple of it. pahole subtracts
// the remainder from the word size rather than from that alignment, so a
// struct { int a; char b; } of 8 bytes becomes one of 12.
func (u *unit) reorgPadding(c *class, addr uint64) {
	var align uint64
	for i := range c.members {
		m := &c.members[i]
		if s := m.byteSize + uint64(int64(m.hole)); s <= addr && s > align {
			align = s
		}
	}
	if align == 0 {
		return
	}
	if align > 1 {
		align = (align + 1) / 2 * 2
	}
	lm := &c.members[len(c.members)-1]
	end := uint64(lm.byteOffset) + lm.byteSize
	var padding uint16
	if mod := end % align; mod != 0 {
		padding = uint16(addr - mod)
	}
	if padding != c.padding {
		c.padding = padding
		c.size = uint32(end + uint64(padding))
	}
}

// findNextHoleOfSize is pahole's class__find_next_hole_of_size: the first
// member after from that has a hole after it and fits size; for a
// bitfield, the first member of its bitfield. -1 when none.
func findNextHoleOfSize(c *class, from int, size uint64) int {
	head := -1
	for i := from + 1; i < len(c.members); i++ {
		m := &c.members[i]
		if m.bitfieldSize != 0 {
			if head < 0 {
				head = i
			}
		} else {
			head = -1
		}
		if m.hole != 0 && m.byteSize != 0 && m.byteSize <= size {
			if head >= 0 {
				return head
			}
			return i
		}
	}
	return -1
}

// findLastMemberOfSize is pahole's class__find_last_member_of_size: the
// last member after to that fits size, skipping bitfield members that do
// not start their bitfield (unless at offset 0). -1 when none.
func findLastMemberOfSize(c *class, to int, size uint64) int {
	for i := len(c.members) - 1; i > to; i-- {
		m := &c.members[i]
		if m.bitfieldSize != 0 && m.byteOffset != 0 && c.members[i-1].bitfieldSize != 0 {
			continue
		}
		if m.byteSize != 0 && m.byteSize <= size {
			return i
		}
	}
	return -1
}

// moveMember is pahole's class__move_member: the member at from goes
// right after the one at dest (dest < from), at dest's end plus dest's
// hole modulo from's alignment (at most a word);
// then the struct shrinks by a word when from left a word-sized gap, or by
// from and the padding when from was last or filled the padding at an
// aligned offset. A bitfield is not moved (false).
func (u *unit) moveMember(c *class, dest, from int, fromPadding bool, steps reorgStep, b *buf) bool {
	if c.members[from].bitfieldSize != 0 || from <= dest {
		return false
	}
	addr := uint64(u.sz.PtrSize)
	fm := c.members[from]
	dm := &c.members[dest]
	fromSize := fm.byteSize
	fromWasLast := from == len(c.members)-1
	fromPrevName := c.members[from-1].name
	origTailFromHole := uint16(fm.hole)
	origFromOffset := uint16(fm.byteOffset)
	align := min(fromSize, addr)
	offset := uint16(uint64(int64(dm.hole)) % align)
	// pahole: uint16_t, see the top of this file.
	newFromOffset := uint32(uint64(dm.byteOffset) + dm.byteSize + uint64(offset))

	if steps > reorgQuiet {
		b.Str("/* Moving '")
		b.Str(cname(fm.name, fm.name != ""))
		b.Str("' from after '")
		b.Str(cname(fromPrevName, fromPrevName != ""))
		b.Str("' to after '")
		b.Str(cname(dm.name, dm.name != ""))
		b.Str("' */\n")
	}

	fm.byteOffset = newFromOffset
	fm.bitOffset = newFromOffset*8 + uint32(int32(fm.bitfieldOffset))
	copy(c.members[dest+2:from+1], c.members[dest+1:from])
	c.members[dest+1] = fm
	fromPrev := from // where the member before from is now
	if dest == from-1 {
		fromPrev = dest
	}

	switch {
	case fromPadding:
		if origFromOffset%uint16(addr) == 0 {
			c.size -= uint32(fromSize + uint64(c.padding))
		} else if steps > reorgQuiet {
			b.Str("/* adding ")
			b.Uint(fromSize)
			b.Str(" bytes from ")
			b.Str(cname(fm.name, fm.name != ""))
			b.Str(" to the padding */\n")
		}
	case fromWasLast:
		c.size -= uint32(fromSize + uint64(c.padding))
	case uint64(origTailFromHole)+fromSize >= addr:
		c.size -= uint32(addr)
		subtractOffsetsFrom(c, fromPrev, uint16(addr))
	}

	c.holesSearched = false
	c.findHoles()
	if steps >= reorgLayouts {
		u.printReorgStep(b, c)
	}
	return true
}

// subtractOffsetsFrom is pahole's class__subtract_offsets_from: the
// members after the one at from move size bytes back, and the padding is
// what is left after the last member.
func subtractOffsetsFrom(c *class, from int, size uint16) {
	for i := from + 1; i < len(c.members); i++ {
		c.members[i].byteOffset -= uint32(size)
		c.members[i].bitOffset -= uint32(size) * 8
	}
	if c.padding != 0 {
		lm := &c.members[len(c.members)-1]
		if p := int64(uint64(c.size) - (uint64(lm.byteOffset) + lm.byteSize)); p > 0 {
			c.padding = uint16(p)
		} else {
			c.padding = 0
		}
	}
}
