package layout

import (
	"io"
	"math/bits"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/internal/ctype"
)

// unit is one input as pahole's loader makes it a "cu": a Spec, the DWARF
// facts beside it (nil for BTF input) and the per-type state pahole keeps
// while printing (holes, inferred attributes, caches). State is per unit:
// pahole loads each DWARF compile unit into its own objects, and what
// printing one type infers about another (a struct found packed because
// of where another type puts it) stays within that unit.
type unit struct {
	spec      *btf.Spec
	facts     *dwarffacts.Facts
	sz        *ctype.Sizer // sizes of types (tag__size), the pointer size; -w changes them
	cacheline uint32
	classes   []*class // by type ID, built on first use
	enumLen   map[btf.TypeID]uint16
	depth     int // recursion depth of the walks over types (enter)

	typedefOf map[btf.TypeID]btf.TypeID // each type's first typedef (filter.go)

	opts      *Options     // the listing's options
	inputName string       // the unit's name (-I: NamedUnit's)
	ws        *wordSize    // -w (word_size.go)
	nm        *ctype.Namer // how types are spelled; --compile's renames (names.go)

	// Output written as it is printed (flush.go).
	out       io.Writer
	outBuf    *buf
	written   int
	outErr    error
	recursion map[btf.TypeID]int // types being printed in place (-E, -p: expand.go)
	inPlace   []btf.TypeID       // structs and unions printed in place and typedefs followed, outermost first (loopsInPlace)

	expansions int  // pointed-to types printed in place in the current top-level type (-p)
	cut        bool // expansions reached Options.MaxPointerExpansions
}

// maxDepth bounds how deep the printer follows types into types: valid
// BTF and DWARF nest far less; a malformed input whose types contain
// themselves stops there instead of exhausting the stack.
const maxDepth = 512

// enter counts one more level of recursion and reports whether it may go
// on; every enter that returns true is paired with a leave.
func (u *unit) enter() bool {
	if u.depth >= maxDepth {
		return false
	}
	u.depth++
	return true
}

func (u *unit) leave() { u.depth-- }

func newUnit(spec *btf.Spec, facts *dwarffacts.Facts, cacheline uint32) *unit {
	u := &unit{
		spec:      spec,
		facts:     facts,
		nm:        ctype.NewNamer(spec, facts, ctype.Options{}),
		cacheline: cacheline,
		classes:   make([]*class, spec.NextID()),
	}
	u.sz = &ctype.Sizer{Spec: spec, Facts: facts, DWARF: facts != nil, PtrSize: ctype.PointerSize(spec)}
	return u
}

// dwarf reports whether the unit came from DWARF, which changes a few
// things pahole prints (base type names, alignments, forced paddings).
func (u *unit) dwarf() bool { return u.facts != nil }

// typ returns the type with the given ID as pahole's type table would:
// false for void, for IDs out of range, and for kinds pahole's BTF loader
// does not keep (DATASEC, DECL_TAG).
func (u *unit) typ(id btf.TypeID) (btf.Type, bool) {
	if id == 0 || id >= u.spec.NextID() {
		return btf.Type{}, false
	}
	t := u.spec.Type(id)
	switch t.Kind() {
	case btf.KindUnknown, btf.KindDatasec, btf.KindDeclTag:
		return t, false
	}
	return t, true
}

// strip follows typedefs and qualifiers from the type id refers to, as
// pahole's tag__strip_typedefs_and_modifiers does from a tag's type; 0
// when that reaches void or a missing type.
func (u *unit) strip(id btf.TypeID) btf.TypeID {
	for n := btf.TypeID(0); n < u.spec.NextID(); n++ { // longer chains loop
		t, ok := u.typ(id)
		if !ok {
			return 0
		}
		if k := t.Kind(); k != btf.KindTypedef && !btf.IsQualifier(k) {
			return id
		}
		id = t.Ref()
	}
	return 0
}

// sizeError is what pahole's tag__size returns for a type it cannot find
// (-1 as a size_t).
const sizeError = ctype.SizeError

// size is pahole's tag__size (internal/ctype), with -w's sizes.
func (u *unit) size(id btf.TypeID) uint64 { return u.sz.Size(id) }

// enumOrFloatSize is the byte size pahole gives an enum (4 when BTF says
// 0) or a float.
func enumOrFloatSize(t btf.Type) uint32 {
	if t.IsEnum() && t.Size() == 0 {
		return 4
	}
	return t.Size()
}

// array returns the array id as pahole's loader makes it: its element
// type and its dimensions, outermost first (ctype.Sizer.Array).
func (u *unit) array(id btf.TypeID, a btf.Array) (btf.TypeID, []uint32) { return u.sz.Array(id, a) }

// dims returns the dimensions of the array id, outermost first (array).
func (u *unit) dims(id btf.TypeID, a btf.Array) []uint32 {
	_, d := u.array(id, a)
	return d
}

// arrayElem returns the element type of the array id as pahole's loader
// makes it (array), without making the dimensions.
func (u *unit) arrayElem(id btf.TypeID, a btf.Array) btf.TypeID { return u.sz.ArrayElem(id, a) }

// natAlign is pahole's tag__natural_alignment: pointers and base types
// align to their size, enums to theirs, structs and unions to their most
// aligned member, arrays as their element; anything else, and 0, is 1.
func (u *unit) natAlign(id btf.TypeID) uint64 {
	t, ok := u.typ(id)
	if !ok || !u.enter() {
		return 1
	}
	defer u.leave()
	var n uint64
	switch {
	case t.Kind() == btf.KindPtr:
		n = uint64(u.sz.PtrSize)
	case t.Kind() == btf.KindInt:
		_, _, nbits := t.IntEncoding()
		n = uint64(nbits / 8)
		if w, ok := u.wordSized(id, t); ok {
			n = w
		}
	case t.Kind() == btf.KindFloat || t.IsEnum():
		n = uint64(enumOrFloatSize(t))
	case t.IsStruct() || t.IsUnion():
		n = uint64(u.class(id).naturalAlign(u))
	case t.Kind() == btf.KindArray:
		if e := u.strip(u.arrayElem(id, t.Array())); e != 0 {
			n = u.natAlign(e)
		} else {
			n = 1
		}
	}
	if n == 0 {
		return 1
	}
	return n
}

// member is one data member of a struct or union, with the fields pahole
// computes and prints, in pahole's widths.
type member struct {
	name           string // "" for an anonymous member (pahole: NULL)
	typ            btf.TypeID
	bitOffset      uint32
	bitSize        uint32
	byteOffset     uint32
	hole           int32
	byteSize       uint64
	bitfieldOffset int8
	bitfieldSize   uint8
	bitHole        uint8
	alignment      uint32
}

// class is a struct or union (or a FWD of one) with pahole's per-type
// state.
type class struct {
	id      btf.TypeID
	union   bool
	fwd     bool
	name    string
	size    uint32
	align   uint32 // pahole's type->alignment: DW_AT_alignment, or inferred from BTF
	members []member

	holesSearched bool
	nrHoles       uint8
	nrBitHoles    uint8
	preHole       uint16
	padding       uint16
	preBitHole    uint8
	bitPadding    uint8

	natAlign uint16 // 0 until computed (and when no member has one)

	packedInferred bool
	packed         bool

	flexVerified    bool
	hasFlex         bool
	embFlexSearched bool
	hasEmbFlex      bool

	reorganized *class // --packable's reorganized copy (pahole's class->priv)
}

// class returns the class for a struct, union or FWD, building it on first
// use: members as pahole's loader leaves them, sizes and bitfield offsets
// computed, alignments from the DWARF facts or inferred from BTF.
func (u *unit) class(id btf.TypeID) *class {
	if c := u.classes[id]; c != nil {
		return c
	}
	t := u.spec.Type(id)
	c := &class{id: id, name: t.Name(), union: t.IsUnion(), fwd: t.Kind() == btf.KindFwd}
	u.classes[id] = c
	if c.fwd {
		return c
	}
	c.size = t.Size()
	c.members = make([]member, t.Vlen())
	for i := range c.members {
		m := t.Member(i)
		bitOff, bfSize := t.MemberBits(i)
		c.members[i] = member{
			name:         t.Spec().String(m.NameOff),
			typ:          m.Type,
			bitOffset:    bitOff,
			bitfieldSize: uint8(bfSize),
			byteOffset:   bitOff / 8,
		}
	}
	if u.dwarf() {
		u.dwarfMembers(c)
	} else {
		u.btfFixup(c)
	}
	return c
}

// dwarfMembers completes members as pahole's DWARF loader does
// (class_member__cache_byte_size), with alignments from DW_AT_alignment.
func (u *unit) dwarfMembers(c *class) {
	c.align = u.facts.Align(c.id)
	for i := range c.members {
		m := &c.members[i]
		m.alignment = u.facts.MemberAlign(c.id, i)
		if m.bitfieldSize == 0 {
			m.byteSize = u.size(m.typ)
			if m.typ == 0 {
				m.byteSize = sizeError
			}
			m.bitSize = uint32(m.byteSize * 8)
			continue
		}
		st := u.strip(m.typ)
		if st == 0 {
			continue
		}
		m.byteSize = u.size(st)
		m.bitSize = uint32(m.byteSize * 8)
		if m.byteSize == 0 {
			continue
		}
		u.bitfieldPlace(m)
		if u.opts != nil && u.opts.FixupSillyBitfields {
			fixupSillyBitfield(m) // fixup_silly_bitfields.go
		}
	}
}

// bitfieldPlace puts a bitfield in its storage unit: the unit's byte
// offset, aligned to the unit's size, and the bit offset within it.
func (u *unit) bitfieldPlace(m *member) {
	m.byteOffset = m.bitOffset / m.bitSize * m.bitSize / 8
	m.bitfieldOffset = int8(m.bitOffset - m.byteOffset*8)
	if m.bitfieldOffset < 0 {
		m.bitfieldOffset += int8(m.bitSize)
		m.byteOffset -= uint32(m.byteSize)
		m.bitOffset = m.byteOffset*8 + uint32(int32(m.bitfieldOffset))
	}
}

// btfFixup completes members as pahole's BTF loader does
// (class__fixup_btf_bitfields): sizes from the member types, bitfields
// placed in their storage units, and __aligned__ attributes of members
// and of the type itself inferred from the offsets.
func (u *unit) btfFixup(c *class) {
	var smallest uint32
	for i := range c.members {
		m := &c.members[i]
		st := u.strip(m.typ)
		if st == 0 {
			continue
		}
		m.bitfieldOffset = 0
		m.byteSize = u.size(st)
		m.bitSize = uint32(m.byteSize * 8)
		if m.byteSize == 0 {
			m.alignment = u.inferAlign(m.byteOffset, u.natAlign(st), smallest)
			continue
		}
		t, _ := u.typ(st)
		if k := t.Kind(); k == btf.KindInt || k == btf.KindFloat || t.IsEnum() {
			if m.bitfieldSize != 0 {
				u.bitfieldPlace(m)
			} else {
				m.byteOffset = m.bitOffset / 8
			}
		}
		m.alignment = u.inferAlign(m.byteOffset, u.natAlign(st), smallest)
		smallest = m.byteOffset
		if m.bitfieldSize != 0 {
			smallest += uint32((int32(m.bitfieldOffset) + int32(m.bitfieldSize) + 7) / 8)
		} else {
			smallest += uint32(m.byteSize)
		}
	}
	c.align = u.inferAlign(c.size, u.natAlign(c.id), smallest)
}

// inferAlign is pahole's class__infer_alignment: a member (or the type's
// end) placed past where the previous member ended, at an even offset,
// suggests an alignment of the power of two above the gap; it counts when
// larger than the natural alignment, and becomes the cache line size when
// the offset is on a cache line boundary.
func (u *unit) inferAlign(byteOffset uint32, natural uint64, smallest uint32) uint32 {
	var align uint32
	if delta := byteOffset - smallest; delta != 0 && byteOffset%2 == 0 {
		// 1 << (32 - clz): x86 masks a shift count of 32 to 0.
		align = 1 << ((32 - bits.LeadingZeros32(delta)) & 31)
	}
	cl := u.cacheline
	switch {
	case uint64(align) <= natural || align == 1:
		align = 0
	case align < cl && cl%align == 0 && byteOffset%cl == 0:
		align = cl
	}
	return align
}

// naturalAlign is pahole's type__natural_alignment, cached in 16 bits.
func (c *class) naturalAlign(u *unit) uint16 {
	if c.natAlign != 0 {
		return c.natAlign
	}
	for i := range c.members {
		st := u.strip(c.members[i].typ)
		if st == 0 {
			continue
		}
		if n := u.natAlign(st); uint64(c.natAlign) < n {
			c.natAlign = uint16(n)
		}
	}
	return c.natAlign
}

// findHoles is pahole's class__find_holes: for each member the byte and
// bit holes after it, before the first member, and the padding at the
// end, with pahole's integer widths (a bit hole is 8 bits, padding 16).
func (c *class) findHoles() {
	if c.union || c.holesSearched {
		return
	}
	c.nrHoles, c.nrBitHoles = 0, 0
	curBitfieldEnd, curBitfieldSize := c.size*8, uint32(0)
	var lastSeen uint32
	inBitfield := false
	var last *member
	for i := range c.members {
		pos := &c.members[i]
		pos.bitHole, pos.hole = 0, 0
		bitStart := pos.bitOffset
		var bitEnd uint32
		if pos.bitfieldSize != 0 {
			bitEnd = bitStart + uint32(pos.bitfieldSize)
		} else {
			bitEnd = bitStart + uint32(pos.byteSize*8)
		}
		var bitHoles, byteHoles int32
		if inBitfield {
			end := min(bitStart, curBitfieldEnd)
			bitHoles = int32(end - lastSeen)
			lastSeen = end
		}
		if pos.bitfieldSize != 0 {
			alignedStart := pos.byteOffset * 8
			if lastSeen < alignedStart && alignedStart <= bitStart {
				byteHoles = int32(pos.byteOffset - lastSeen/8)
				lastSeen = alignedStart
			}
			bitHoles = int32(uint32(bitHoles) + bitStart - lastSeen)
		} else {
			byteHoles = int32(bitStart/8 - lastSeen/8)
		}
		lastSeen = bitEnd
		if pos.bitfieldSize != 0 {
			inBitfield = true
			if bitEnd > curBitfieldEnd || pos.bitSize > curBitfieldSize {
				curBitfieldSize = pos.bitSize
				curBitfieldEnd = pos.byteOffset*8 + curBitfieldSize
				if bitEnd > curBitfieldEnd {
					curBitfieldEnd += curBitfieldSize
				}
			}
		} else {
			inBitfield = false
			curBitfieldSize = 0
			curBitfieldEnd = bitEnd
		}
		if last != nil {
			last.hole = byteHoles
			last.bitHole = uint8(bitHoles)
		} else {
			c.preHole = uint16(byteHoles)
			c.preBitHole = uint8(bitHoles)
		}
		if bitHoles != 0 {
			c.nrBitHoles++
		}
		if byteHoles > 0 {
			c.nrHoles++
		}
		last = pos
	}
	if inBitfield {
		end := min(c.size*8, curBitfieldEnd)
		c.bitPadding = uint8(end - lastSeen)
		lastSeen = end
	} else {
		c.bitPadding = 0
	}
	c.padding = uint16(c.size - lastSeen/8)
	c.holesSearched = true
}

// inferPacked is pahole's class__infer_packed_attributes: a struct without
// holes or padding is __packed__ when a member sits at an offset its
// natural alignment forbids, or its size is not a multiple of its most
// aligned member's alignment. A struct with holes or padding instead
// marks the structs it embeds at such offsets as packed. The answer is
// cached, and another type's inference may have set it first.
func (u *unit) inferPacked(c *class) bool {
	if c.union {
		return false
	}
	if c.packedInferred {
		return c.packed
	}
	c.findHoles()
	if c.padding != 0 || c.nrHoles != 0 {
		u.markUnnaturalStructs(c)
		c.packed = false
	} else {
		maxNat := uint16(1)
		packed := false
		for i := range c.members {
			pos := &c.members[i]
			nat := u.natAlign(u.strip(pos.typ))
			if nat == 1 {
				continue
			}
			if uint64(maxNat) < nat {
				maxNat = uint16(nat)
			}
			if uint64(pos.byteOffset)%nat == 0 {
				continue
			}
			packed = true
			break
		}
		if packed || (maxNat != 1 && c.align == 1) || (maxNat != 0 && c.size%uint32(maxNat) != 0) {
			c.packed = true
		}
	}
	c.packedInferred = true
	return c.packed
}

// markUnnaturalStructs is pahole's type__check_structs_at_unnatural_alignments.
func (u *unit) markUnnaturalStructs(c *class) {
	for i := range c.members {
		st := u.strip(c.members[i].typ)
		t, ok := u.typ(st)
		if !ok || !t.IsStruct() {
			continue
		}
		if uint64(c.members[i].byteOffset)%u.natAlign(st) != 0 {
			mc := u.class(st)
			mc.packed = true
			mc.packedInferred = true
		}
	}
}

// inferUnionPacked is pahole's union__infer_packed_attributes: a struct in
// a union whose size is not a multiple of the struct's alignment is packed.
func (u *unit) inferUnionPacked(c *class) {
	if c.packedInferred {
		return
	}
	for i := range c.members {
		st := u.strip(c.members[i].typ)
		t, ok := u.typ(st)
		if !ok || !t.IsStruct() {
			continue
		}
		if uint64(c.size)%u.natAlign(st) != 0 {
			mc := u.class(st)
			mc.packed = true
			mc.packedInferred = true
		}
	}
	c.packedInferred = true
}

// hasFlexibleArray is pahole's class__has_flexible_array: the last member
// is a one-dimensional array of no elements.
func (u *unit) hasFlexibleArray(c *class) bool {
	if c.flexVerified {
		return c.hasFlex
	}
	c.flexVerified = true
	c.hasFlex = false
	if len(c.members) == 0 {
		return false
	}
	last := c.members[len(c.members)-1].typ
	t, ok := u.typ(last)
	if !ok || t.Kind() != btf.KindArray {
		return false
	}
	d := u.dims(last, t.Array())
	c.hasFlex = len(d) == 1 && d[0] == 0
	return c.hasFlex
}

// hasEmbeddedFlexibleArray is pahole's
// class__has_embedded_flexible_array: a struct member, at any depth, ends
// in a flexible array.
func (u *unit) hasEmbeddedFlexibleArray(c *class) bool {
	if c.union {
		return false
	}
	if c.embFlexSearched {
		return c.hasEmbFlex
	}
	if !u.enter() {
		return false
	}
	defer u.leave()
	for i := range c.members {
		st := u.strip(c.members[i].typ)
		t, ok := u.typ(st)
		if !ok || !t.IsStruct() {
			continue
		}
		mc := u.class(st)
		c.hasEmbFlex = u.hasFlexibleArray(mc)
		if c.hasEmbFlex {
			break
		}
		if mc == c {
			continue
		}
		c.hasEmbFlex = u.hasEmbeddedFlexibleArray(mc)
		if c.hasEmbFlex {
			break
		}
	}
	c.embFlexSearched = true
	return c.hasEmbFlex
}

// structKeyword is what pahole prints before a struct's name or body:
// "class" for a C++ class, unless --classes_as_structs.
func (u *unit) structKeyword(id btf.TypeID, c conf) string {
	if u.facts.Class(id) && !c.classesAsStructs {
		return "class"
	}
	return "struct"
}
