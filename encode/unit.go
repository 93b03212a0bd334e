package encode

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
)

// A unit is converted in two steps. The walk (add, called once per entry
// in entry order) records the entries that matter as flat records: one rec
// per type entry (and per GNU annotation entry, which others refer to) and
// one item per member, enumerator, subrange, parameter or annotation,
// chained to its rec. Then emit assigns BTF IDs in entry order, resolves
// DW_AT_type references by binary search over the recs' offsets, and
// writes the fragment. The slices are reused from one unit to the next, so
// a worker allocates only while they grow.

// rec is one type entry (or GNU annotation entry) of the unit.
type rec struct {
	off         uint64
	typ         uint64
	size        uint64
	name        string
	constString string // GNU annotation value
	annotation  uint64 // DW_AT_GNU_annotation
	tag         dwarf.Tag
	has         uint32
	enc         dwarf.Encoding
	variadic    bool   // subroutine type with unspecified parameters
	nMembers    int32  // DW_TAG_member children seen (component index of the next)
	nTags       int32  // TYPE_TAGs this pointer gets
	first, last int32  // chain of items, -1 when empty
	align       uint32 // DW_AT_alignment (facts.go)
	nested      bool   // not a child of the unit's root entry (facts.go)
	after       int32  // in a struct or union's body: members before it (facts.go)
}

// Item kinds.
const (
	itemMember = iota
	itemEnumerator
	itemSubrange
	itemParam
	itemTypeTag // LLVM btf_type_tag under a pointer
	itemDeclTag // btf_decl_tag on a struct, union, typedef or member
)

// item is one child of a rec.
type item struct {
	next       int32
	kind       uint8
	signed     bool
	comp       int32 // decl tag component index (-1: the type itself)
	has        uint32
	name       string // member/enumerator/parameter name, or annotation value
	typ        uint64
	loc        uint64 // member: data_member_location; enumerator: value; subrange: element count
	dataBitOff uint64
	bitOffset  uint64
	bitSize    uint64
	byteSize   uint64
	annotation uint64 // member: DW_AT_GNU_annotation
	align      uint32 // member: DW_AT_alignment (facts.go)
}

// frame is an open entry (one with children) during the walk.
type frame struct {
	rec    int32 // the rec this entry is or belongs to, -1 if none
	member int32 // when the entry is a member: its component index, else -1
}

const noID = ^uint32(0)

// unitConv converts the type entries of one unit into a BTF fragment.
type unitConv struct {
	feat      Features
	bigEndian bool
	langSkip  func(lang uint16) bool

	skip      bool
	lang      uint16
	tooLong   error // a type with more entries than a BTF vlen holds
	recs      []rec
	items     []item
	stack     []frame
	ids       []uint32 // rec index -> BTF ID (noID: none of its own)
	addedInt  uint32   // the ID of the "int" emit added as the arrays' index type, 0 if none
	scratch   []uint32 // a type's trailing words being made
	strs      strTab
	tagValues []string       // a pointer's TYPE_TAG values being made
	free      chan *fragment // fragments the merge is done with, for reuse
	facts     bool           // fill fragment.facts (facts.go)

	// cont: the next unit's entries continue the unit being converted
	// (merged.go): its root opens no unit of its own.
	cont bool

	tagStack []dwarf.Tag // the fast reader's open entries' tags, by depth
	// offBias moves the entries read and their references (those of a
	// dwz alternate file, merged.go); importUnit, when set (a merged
	// walk), reads the unit a top-level DW_TAG_imported_unit names.
	offBias    uint64
	importUnit func(off uint64) error
	base       uint64  // offset of the unit's root entry
	index      []int32 // offset - base -> rec index (see find)
	// far indexes the recs outside index once the recs are not in
	// offset order (a merged walk reading an imported unit, or a dwz
	// alternate file, before the units at lower offsets); nil while they
	// are, when find searches recs by offset instead. lastOff is the
	// highest offset indexed so far.
	far     map[uint64]int32
	lastOff uint64

	// nested lists the types defined directly in a struct, class or
	// union's body (child rec, container rec), in entry order; order
	// is the resulting ID order (see emitOrder).
	nested [][2]int32
	order  []int32
}

func (c *unitConv) newFragment() *fragment {
	select {
	case f := <-c.free:
		f.reset()
		return f
	default:
		if f, _ := fragPool.Get().(*fragment); f != nil {
			return f
		}
		return &fragment{}
	}
}

// fragPool holds the fragments of finished walks (reset), for the next
// file's: a batch of modules otherwise grows every module's fragments
// from nothing (~600 MB of garbage over 1,121 modules).
var fragPool sync.Pool

// addType appends a type to the fragment, its name interned in c.strs.
func (c *unitConv) addType(s *fragment, name string, k btf.Kind, vlen int, kflag bool, sizeType uint32, ext ...uint32) {
	if vlen > btf.MaxVlen && c.tooLong == nil {
		c.tooLong = fmt.Errorf("%v '%s' has %d members, enumerators or parameters, more than a BTF type holds (%d)", k, name, vlen, btf.MaxVlen)
	}
	s.hdrs = append(s.hdrs, fragHdr{c.strs.add(name), btf.Info(k, vlen, kflag), sizeType})
	s.words = append(s.words, ext...)
}

func (c *unitConv) reset() {
	c.skip = false
	c.tooLong = nil
	c.lang = 0
	c.recs = c.recs[:0]
	c.items = c.items[:0]
	c.stack = c.stack[:0]
	c.nested = c.nested[:0]
	c.far, c.lastOff = nil, 0
}

// typeTags are the tags of the entries the converter makes types of.
var typeTags = []dwarf.Tag{
	dwarf.TagBaseType, dwarf.TagPointerType, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType,
	dwarf.TagAtomicType, dwarf.TagTypedef, dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType,
	dwarf.TagEnumerationType, dwarf.TagArrayType, dwarf.TagSubroutineType, dwarf.TagUnspecifiedType,
	dwarf.TagReferenceType, dwarf.TagRvalueReferenceType, dwarf.TagPtrToMemberType, dwarf.TagGNUAnnotation,
}

// Tag classes below 0x100, looked up by tag: the walk asks for each of
// a vmlinux's 14 M entries, and a switch over the tags took 1.3% of an
// encode's instructions.
const (
	tagType   = 1 << iota // typeTags
	tagWanted             // wanted whatever the parent
)

var tagClass = func() (t [0x100]uint8) {
	for _, tag := range typeTags {
		if tag < dwarf.Tag(len(t)) {
			t[tag] |= tagType | tagWanted
		}
	}
	for _, tag := range []dwarf.Tag{dwarf.TagMember, dwarf.TagEnumerator, dwarf.TagSubrangeType, dwarf.TagUnspecifiedParameters} {
		t[tag] |= tagWanted
	}
	return t
}()

func isTypeTag(tag dwarf.Tag) bool {
	if tag < dwarf.Tag(len(tagClass)) {
		return tagClass[tag]&tagType != 0
	}
	return tag == dwarf.TagGNUAnnotation
}

func isStructTag(tag dwarf.Tag) bool {
	return tag == dwarf.TagStructureType || tag == dwarf.TagClassType || tag == dwarf.TagUnionType
}

// add records one entry. Entries must come in order, with depth 0 for the
// unit's root.
func (c *unitConv) add(d *die) {
	if d.depth == 0 {
		if c.cont {
			c.stack = append(c.stack[:0], frame{-1, -1})
			return
		}
		c.reset()
		c.base = d.off
		c.lang = d.language
		if c.langSkip != nil && c.langSkip(d.language) {
			c.skip = true
		}
		c.stack = append(c.stack, frame{-1, -1})
		return
	}
	if c.skip {
		return
	}
	if d.depth > len(c.stack) { // a child of an entry without children: ignore
		return
	}
	c.stack = c.stack[:d.depth]
	parent := c.stack[d.depth-1]
	fr := frame{-1, -1}
	switch {
	case isTypeTag(d.tag):
		fr.rec = int32(len(c.recs))
		c.indexRec(d.off, fr.rec)
		c.recs = append(c.recs, rec{
			off: d.off, typ: d.typ, size: d.byteSize, name: d.name,
			constString: d.constString, annotation: d.annotation,
			tag: d.tag, has: d.has, enc: d.encoding, first: -1, last: -1,
			align: uint32(d.alignment), nested: d.depth > 1,
		})
		if parent.rec >= 0 && parent.member < 0 && isStructTag(c.recs[parent.rec].tag) {
			c.nested = append(c.nested, [2]int32{fr.rec, parent.rec})
			c.recs[fr.rec].after = c.recs[parent.rec].nMembers
		}
	case parent.rec >= 0:
		p := &c.recs[parent.rec]
		switch d.tag {
		case dwarf.TagMember:
			if parent.member >= 0 || !isStructTag(p.tag) {
				break
			}
			fr = frame{parent.rec, p.nMembers}
			p.nMembers++
			c.addItem(parent.rec, item{kind: itemMember, name: d.name, typ: d.typ, has: d.has,
				loc: d.memberLoc, dataBitOff: d.dataBitOff, bitOffset: d.bitOffset,
				bitSize: d.bitSize, byteSize: d.byteSize, annotation: d.annotation, comp: fr.member,
				align: uint32(d.alignment)})
		case dwarf.TagEnumerator:
			if p.tag == dwarf.TagEnumerationType {
				c.addItem(parent.rec, item{kind: itemEnumerator, name: d.name, loc: d.constValue, signed: d.constSigned})
			}
		case dwarf.TagSubrangeType:
			if p.tag == dwarf.TagArrayType {
				n := uint64(0)
				switch {
				case d.has&hasUpperBound != 0:
					n = d.upperBound + 1
				case d.has&(hasUpperBoundVar) != 0:
				case d.has&hasCount != 0:
					n = d.count
				}
				c.addItem(parent.rec, item{kind: itemSubrange, loc: n})
			}
		case dwarf.TagFormalParameter:
			if p.tag == dwarf.TagSubroutineType {
				c.addItem(parent.rec, item{kind: itemParam, name: d.name, typ: d.typ, has: d.has})
			}
		case dwarf.TagUnspecifiedParameters:
			if p.tag == dwarf.TagSubroutineType {
				p.variadic = true
			}
		case dwarf.TagLLVMAnnotation:
			c.annotate(parent, d)
		}
	}
	if d.children {
		c.stack = append(c.stack, fr)
	}
}

func (c *unitConv) annotate(parent frame, d *die) {
	p := &c.recs[parent.rec]
	switch {
	case parent.member >= 0:
		if d.name == annotationDeclTagName {
			c.addItem(parent.rec, item{kind: itemDeclTag, name: d.constString, comp: parent.member})
		}
	case p.tag == dwarf.TagPointerType:
		if d.name == annotationTypeTagName {
			c.addItem(parent.rec, item{kind: itemTypeTag, name: d.constString})
		}
	case isStructTag(p.tag) || p.tag == dwarf.TagTypedef:
		if d.name == annotationDeclTagName {
			c.addItem(parent.rec, item{kind: itemDeclTag, name: d.constString, comp: -1})
		}
	}
}

func (c *unitConv) addItem(r int32, it item) {
	i := int32(len(c.items))
	it.next = -1
	c.items = append(c.items, it)
	p := &c.recs[r]
	if p.last < 0 {
		p.first = i
	} else {
		c.items[p.last].next = i
	}
	p.last = i
}

// find returns the index of the rec at offset off, or -1.
//
// index maps an offset relative to the unit's root to the rec there. It is
// reused across units without clearing: an entry is believed only when the
// rec it names has that offset, so stale entries are harmless.
func (c *unitConv) find(off uint64) int {
	if rel := off - c.base; off >= c.base && rel < uint64(len(c.index)) {
		i := int(c.index[rel])
		if i < len(c.recs) && c.recs[i].off == off {
			return i
		}
		return -1
	}
	if c.far != nil {
		if i, ok := c.far[off]; ok {
			return int(i)
		}
		return -1
	}
	return searchOff(c.recs, off, func(r *rec) uint64 { return r.off })
}

// searchOff returns the index of the record at DWARF offset off in recs,
// which are sorted by offset, or -1.
func searchOff[T any](recs []T, off uint64, offOf func(*T) uint64) int {
	lo, hi := 0, len(recs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if offOf(&recs[m]) < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(recs) && offOf(&recs[lo]) == off {
		return lo
	}
	return -1
}

// maxIndex bounds the direct index (entries of 4 bytes per byte of unit);
// offsets beyond it are found by binary search.
const maxIndex = 64 << 20

func (c *unitConv) indexRec(off uint64, i int32) {
	if off < c.lastOff && c.far == nil {
		// Out of offset order: searching recs no longer works for
		// the offsets index does not hold.
		c.far = map[uint64]int32{}
		for j := range c.recs[:i] {
			if o := c.recs[j].off; o < c.base || o-c.base >= maxIndex {
				c.far[o] = int32(j)
			}
		}
	}
	c.lastOff = max(c.lastOff, off)
	rel := off - c.base
	if off < c.base || rel >= maxIndex {
		if c.far != nil {
			c.far[off] = i
		}
		return
	}
	if rel >= uint64(len(c.index)) {
		n := max(2*len(c.index), int(rel)+1, 1<<16)
		n = min(n, maxIndex)
		if n <= cap(c.index) {
			c.index = c.index[:n]
		} else {
			x := make([]int32, n)
			copy(x, c.index)
			c.index = x
		}
	}
	c.index[rel] = i
}

// gnuChain calls f for each DW_TAG_GNU_annotation in the chain starting at
// off, until f returns false.
func (c *unitConv) gnuChain(off uint64, f func(r *rec) bool) {
	for n := 0; off != 0 && n < 1024; n++ {
		i := c.find(off)
		if i < 0 || c.recs[i].tag != dwarf.TagGNUAnnotation {
			return
		}
		r := &c.recs[i]
		if !f(r) {
			return
		}
		if r.has&hasGNUAnnotation == 0 {
			return
		}
		off = r.annotation
	}
}

// idOf returns the BTF ID of rec i (0 for void), looking through entries
// that get no BTF type of their own (DW_TAG_atomic_type).
func (c *unitConv) idOf(i int) uint32 {
	for n := 0; n < 64; n++ {
		id := c.ids[i]
		if id != noID {
			return id
		}
		r := &c.recs[i]
		if r.tag != dwarf.TagAtomicType || r.has&hasType == 0 {
			return 0
		}
		i = c.find(r.typ)
		if i < 0 {
			return 0
		}
	}
	return 0
}

// ref resolves a DW_AT_type reference to a BTF ID; 0 (void) when absent or
// when the entry referred to is not a type.
func (c *unitConv) ref(has uint32, off uint64) uint32 {
	if has&hasType == 0 {
		return 0
	}
	i := c.find(off)
	if i < 0 {
		return 0
	}
	return c.idOf(i)
}

// underlying follows typedefs and qualifiers from a DW_AT_type
// reference (has, off) to the rec of the type under them, or -1.
func (c *unitConv) underlying(has uint32, off uint64) int {
	for n := 0; n < 64 && has&hasType != 0; n++ {
		i := c.find(off)
		if i < 0 {
			return -1
		}
		r := &c.recs[i]
		switch r.tag {
		case dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType, dwarf.TagAtomicType:
			has, off = r.has, r.typ
			continue
		}
		return i
	}
	return -1
}

// storageSize is the byte size of a bitfield's storage unit as pahole
// reads it: the size of its type with typedefs and qualifiers looked
// through, 4 for an enum without one.
func (c *unitConv) storageSize(it *item) uint64 {
	if it.has&hasByteSize != 0 {
		return it.byteSize
	}
	i := c.underlying(it.has, it.typ)
	if i < 0 {
		return 0
	}
	r := &c.recs[i]
	if r.tag == dwarf.TagEnumerationType && r.size == 0 {
		return 4
	}
	return r.size
}

// locationBits is where a member starts as its entry says it:
// DW_AT_data_bit_offset, or DW_AT_data_member_location in bits. It
// reports false for a member with neither (a static member; a union's
// members may omit it).
func (it *item) locationBits() (uint64, bool) {
	switch {
	case it.has&hasDataBitOffset != 0:
		return it.dataBitOff, true
	case it.has&hasMemberLoc != 0:
		return it.loc * 8, true
	}
	return 0, false
}

// inBTF reports whether a member of a struct (union: of a union) is a
// member of its BTF type: a static member, without a location, is not.
func (it *item) inBTF(union bool) bool {
	_, located := it.locationBits()
	return located || union
}

// bitOffset is a member's BTF bit offset: its location (locationBits,
// 0 for a union's member without one), where a DWARF 2-4 bitfield
// (DW_AT_bit_offset, counted from the storage unit's most significant
// bit) becomes the offset of its first bit. It reports false for a
// static member, which BTF leaves out.
func (c *unitConv) bitOffset(it *item, union bool) (uint64, bool) {
	if !it.inBTF(union) {
		return 0, false
	}
	off, _ := it.locationBits()
	if it.bitSize != 0 && it.has&hasDataBitOffset == 0 {
		if bs := c.storageSize(it); bs != 0 {
			if c.bigEndian {
				off += it.bitOffset
			} else {
				off += bs*8 - it.bitOffset - it.bitSize
			}
		}
	}
	return off, true
}

// sortMembersByOffset puts the members of each struct and union in
// offset order, keeping the order of members at the same byte offset:
// rustc lays a struct's fields out in another order than it declares
// them, and pahole sorts the members of the structs of a Rust unit
// (dwarf_loader.c: cu__finalize, cu__sort_types_by_offset; a merged
// unit is Rust when its first unit is). The other children keep their
// places in the chain.
func (c *unitConv) sortMembersByOffset() {
	var idx []int32
	var ms []item
	for i := range c.recs {
		r := &c.recs[i]
		if !isStructTag(r.tag) {
			continue
		}
		idx, ms = idx[:0], ms[:0]
		sorted := true
		for j := r.first; j >= 0; j = c.items[j].next {
			if it := &c.items[j]; it.kind == itemMember {
				if n := len(ms); n > 0 && byteOffset(&ms[n-1]) > byteOffset(it) {
					sorted = false
				}
				idx, ms = append(idx, j), append(ms, *it)
			}
		}
		if sorted {
			continue
		}
		slices.SortStableFunc(ms, func(a, b item) int { return cmp.Compare(byteOffset(&a), byteOffset(&b)) })
		for k, j := range idx {
			next := c.items[j].next
			c.items[j] = ms[k]
			c.items[j].next = next
		}
	}
}

// byteOffset is a member's byte offset as pahole keeps it (class_member's
// byte_offset): its location's byte.
func byteOffset(it *item) uint64 {
	off, _ := it.locationBits()
	return off / 8
}

// elements is the element count of the array at r: the product of its
// dimensions.
func (c *unitConv) elements(r *rec) uint64 {
	n := uint64(1)
	for j := r.first; j >= 0; j = c.items[j].next {
		if c.items[j].kind == itemSubrange {
			n *= c.items[j].loc
		}
	}
	return n
}

// dimensions is the number of dimensions (subranges) of the array at r.
func (c *unitConv) dimensions(r *rec) int {
	n := 0
	for j := r.first; j >= 0; j = c.items[j].next {
		if c.items[j].kind == itemSubrange {
			n++
		}
	}
	return n
}

// emitArray writes the array at r as pahole 1.32 does: one ARRAY per
// dimension, the innermost (last) dimension first with the element type,
// each outer one referring to the one before it, the outermost last (it
// has the array's ID, see emit). An array without subranges is one ARRAY
// of 1 element, as pahole 1.31 wrote it.
func (c *unitConv) emitArray(s *fragment, r *rec, indexID uint32) {
	dims := c.scratch[:0]
	for j := r.first; j >= 0; j = c.items[j].next {
		if c.items[j].kind == itemSubrange {
			dims = append(dims, uint32(c.items[j].loc))
		}
	}
	c.scratch = dims
	elem := c.ref(r.has, r.typ)
	if len(dims) == 0 {
		c.addType(s, "", btf.KindArray, 0, false, 0, elem, indexID, 1)
		return
	}
	for k := len(dims) - 1; k >= 0; k-- {
		id := s.nextID()
		c.addType(s, "", btf.KindArray, 0, false, 0, elem, indexID, dims[k])
		elem = id
	}
}

// emit writes the unit's types into a new fragment and returns it.
func (c *unitConv) emit() *fragment {
	s := c.newFragment()
	if c.skip {
		s.excluded = true
		return s
	}
	c.strs.reset(s)
	if c.lang == dwarf.LangRust {
		c.sortMembersByOffset()
	}
	recs := c.recs
	if cap(c.ids) < len(recs) {
		c.ids = make([]uint32, len(recs), len(recs)+len(recs)/4)
	}
	c.ids = c.ids[:len(recs)]

	// Assign IDs in entry order, a type defined in a struct or union's
	// body before that struct or union.
	order := c.emitOrder()
	next := uint32(1)
	intIdx, haveArray := -1, false
	for k := range recs {
		i := k
		if order != nil {
			i = int(order[k])
		}
		r := &recs[i]
		switch r.tag {
		case dwarf.TagGNUAnnotation:
			c.ids[i] = noID
			continue
		case dwarf.TagAtomicType:
			// BTF has no _Atomic: encoding looks through it (idOf). The
			// facts walk keeps it as a VOLATILE its facts mark atomic,
			// so that a printer can say _Atomic as pahole's DWARF
			// loader does.
			if !c.facts {
				c.ids[i] = noID
				continue
			}
		case dwarf.TagUnspecifiedType, dwarf.TagPtrToMemberType:
			c.ids[i] = 0
			continue
		case dwarf.TagPointerType:
			r.nTags = 0
			if c.feat.Has(FeatTypeTag) {
				for j := r.first; j >= 0; j = c.items[j].next {
					if c.items[j].kind == itemTypeTag {
						r.nTags++
					}
				}
				if r.nTags == 0 && r.has&hasGNUAnnotation != 0 {
					c.gnuChain(r.annotation, func(a *rec) bool {
						if a.name != annotationTypeTagName {
							return false
						}
						r.nTags++
						return true
					})
				}
			}
			c.ids[i] = next
			next += 1 + uint32(r.nTags)
			continue
		case dwarf.TagBaseType:
			if intIdx < 0 && r.name == "int" {
				intIdx = i
			}
		case dwarf.TagArrayType:
			haveArray = true
			// One ARRAY per dimension, the outermost (this entry's ID)
			// last.
			if d := c.dimensions(r); d > 1 {
				next += uint32(d - 1)
			}
		}
		c.ids[i] = next
		next++
	}
	indexID := uint32(0)
	c.addedInt = 0
	if intIdx >= 0 {
		indexID = c.ids[intIdx]
	} else if haveArray {
		indexID = next
		c.addedInt = next
		next++
	}

	for k := range recs {
		i := k
		if order != nil {
			i = int(order[k])
		}
		r := &recs[i]
		if c.ids[i] == noID || c.ids[i] == 0 {
			continue
		}
		c.emitRec(s, r, indexID)
	}
	if intIdx < 0 && haveArray {
		c.addType(s, "int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	}
	if c.feat.Has(FeatDeclTag) {
		c.emitDeclTags(s)
	}
	if c.facts {
		s.facts = c.collectFacts()
	}
	return s
}

// emitOrder returns the order in which the unit's recs get their IDs, or
// nil for entry order. pahole numbers a type when it has read the whole
// entry, so a type defined in the body of a struct, class or union (gcc
// puts them there in function bodies, and in C++) comes before its
// container, whose ID follows its last nested type's: the order is entry
// order with each container moved past its nested types.
func (c *unitConv) emitOrder() []int32 {
	if len(c.nested) == 0 {
		return nil
	}
	order := c.order[:0]
	var open []int32 // containers waiting for their nested types, innermost last
	n := 0           // next entry of c.nested
	for i := range c.recs {
		parent := int32(-1)
		if n < len(c.nested) && c.nested[n][0] == int32(i) {
			parent = c.nested[n][1]
			n++
		}
		for len(open) > 0 && open[len(open)-1] != parent {
			order = append(order, open[len(open)-1])
			open = open[:len(open)-1]
		}
		if n < len(c.nested) && c.nested[n][1] == int32(i) {
			open = append(open, int32(i)) // its first nested type is next
			continue
		}
		order = append(order, int32(i))
	}
	for k := len(open) - 1; k >= 0; k-- {
		order = append(order, open[k])
	}
	c.order = order
	return order
}

func (c *unitConv) emitRec(s *fragment, r *rec, indexID uint32) {
	switch r.tag {
	case dwarf.TagBaseType:
		c.emitBase(s, r)
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		target := c.ref(r.has, r.typ)
		if r.nTags == 0 {
			c.addType(s, "", btf.KindPtr, 0, false, target)
			return
		}
		c.addType(s, "", btf.KindPtr, 0, false, s.nextID()+1)
		// PTR -> tag nearest the '*' -> ... -> tag nearest the pointee -> pointee.
		values := c.tagValues[:0]
		for j := r.first; j >= 0; j = c.items[j].next {
			if c.items[j].kind == itemTypeTag {
				values = append(values, c.items[j].name)
			}
		}
		if len(values) > 0 {
			// LLVM emits the annotations in source order: the last one is
			// nearest the '*'.
			for k := len(values) - 1; k >= 0; k-- {
				nextID := s.nextID() + 1
				if k == 0 {
					nextID = target
				}
				c.addType(s, values[k], btf.KindTypeTag, 0, false, nextID)
			}
			c.tagValues = values
			return
		}
		n := int32(0)
		c.gnuChain(r.annotation, func(a *rec) bool {
			if a.name != annotationTypeTagName || n == r.nTags {
				return false
			}
			n++
			nextID := s.nextID() + 1
			if n == r.nTags {
				nextID = target
			}
			c.addType(s, a.constString, btf.KindTypeTag, 0, false, nextID)
			return true
		})
	case dwarf.TagConstType:
		c.addType(s, "", btf.KindConst, 0, false, c.ref(r.has, r.typ))
	case dwarf.TagVolatileType, dwarf.TagAtomicType: // atomic: facts walk only
		c.addType(s, "", btf.KindVolatile, 0, false, c.ref(r.has, r.typ))
	case dwarf.TagRestrictType:
		c.addType(s, "", btf.KindRestrict, 0, false, c.ref(r.has, r.typ))
	case dwarf.TagTypedef:
		c.addType(s, r.name, btf.KindTypedef, 0, false, c.ref(r.has, r.typ))
	case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType:
		c.emitStruct(s, r)
	case dwarf.TagEnumerationType:
		c.emitEnum(s, r)
	case dwarf.TagArrayType:
		c.emitArray(s, r, indexID)
	case dwarf.TagSubroutineType:
		c.emitProto(s, r)
	}
}

func (c *unitConv) emitBase(s *fragment, r *rec) {
	switch r.enc {
	case dwarf.EncFloat:
		if c.feat.Has(FeatFloat) {
			c.addType(s, r.name, btf.KindFloat, 0, false, uint32(r.size))
			return
		}
	case dwarf.EncComplexFloat, dwarf.EncImaginaryFloat:
		// pahole refuses these with floats on; encoding them as INT
		// (as it does with floats off) keeps the unit encodable.
	}
	enc := uint32(0)
	switch r.enc {
	case dwarf.EncSigned, dwarf.EncSignedChar:
		enc = btf.IntSigned
	case dwarf.EncBoolean:
		enc = btf.IntBool
	}
	name, size := r.name, r.size
	if size == 0 || size&(size-1) != 0 || size > 16 {
		name, size = "__SANITIZED_FAKE_INT__", 4
	}
	c.addType(s, name, btf.KindInt, 0, false, uint32(size), enc<<24|uint32(size*8))
}

func (c *unitConv) emitStruct(s *fragment, r *rec) {
	union := r.tag == dwarf.TagUnionType
	if r.has&hasDeclaration != 0 {
		c.addType(s, r.name, btf.KindFwd, 0, union, 0)
		return
	}
	kind := btf.KindStruct
	if union {
		kind = btf.KindUnion
	}
	c.strs.add(r.name) // the name's string before its members' (pahole's string order)
	w := c.scratch[:0]
	kflag := false
	vlen := 0
	for j := r.first; j >= 0; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itemMember {
			continue
		}
		bitOff, ok := c.bitOffset(it, union)
		if !ok {
			continue // a static member
		}
		if it.bitSize != 0 || bitOff%8 != 0 {
			kflag = true
		}
		w = append(w, c.strs.add(it.name), c.ref(it.has, it.typ), uint32(bitOff)|uint32(it.bitSize)<<24)
		vlen++
	}
	c.scratch = w
	c.addType(s, r.name, kind, vlen, kflag, uint32(r.size), w...)
}

func (c *unitConv) emitEnum(s *fragment, r *rec) {
	size := r.size
	if size == 0 {
		size = 4
	}
	enum64 := c.feat.Has(FeatEnum64)
	c.strs.add(r.name) // the name's string before its enumerators' (pahole's string order)
	w := c.scratch[:0]
	vlen := 0
	if size <= 4 || !enum64 {
		kflag := false
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			if it.kind != itemEnumerator {
				continue
			}
			if enum64 && int64(it.loc) < 0 {
				kflag = true
			}
			w = append(w, c.strs.add(it.name), uint32(it.loc))
			vlen++
		}
		c.scratch = w
		c.addType(s, r.name, btf.KindEnum, vlen, kflag, uint32(size), w...)
		return
	}
	for j := r.first; j >= 0; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itemEnumerator {
			continue
		}
		w = append(w, c.strs.add(it.name), uint32(it.loc), uint32(it.loc>>32))
		vlen++
	}
	c.scratch = w
	signed := false
	if r.has&hasType != 0 {
		if i := c.find(r.typ); i >= 0 {
			e := c.recs[i].enc
			signed = e == dwarf.EncSigned || e == dwarf.EncSignedChar
		}
	}
	c.addType(s, r.name, btf.KindEnum64, vlen, signed, uint32(size), w...)
}

func (c *unitConv) emitProto(s *fragment, r *rec) {
	w := c.scratch[:0]
	vlen := 0
	for j := r.first; j >= 0; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itemParam {
			continue
		}
		w = append(w, c.strs.add(it.name), c.ref(it.has, it.typ))
		vlen++
	}
	if r.variadic {
		w = append(w, 0, 0)
		vlen++
	}
	c.scratch = w
	c.addType(s, "", btf.KindFuncProto, vlen, false, c.ref(r.has, r.typ), w...)
}

// emitDeclTags adds the DECL_TAGs of structs, unions and typedefs, after
// all types, in entry order, as pahole does.
func (c *unitConv) emitDeclTags(s *fragment) {
	for i := range c.recs {
		r := &c.recs[i]
		if !isStructTag(r.tag) && r.tag != dwarf.TagTypedef {
			continue
		}
		id := c.ids[i]
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			switch it.kind {
			case itemDeclTag:
				c.addType(s, it.name, btf.KindDeclTag, 0, false, id, uint32(it.comp))
			case itemMember:
				if it.has&hasGNUAnnotation != 0 {
					comp := it.comp
					c.gnuChain(it.annotation, func(a *rec) bool {
						if a.name == annotationDeclTagName {
							c.addType(s, a.constString, btf.KindDeclTag, 0, false, id, uint32(comp))
						}
						return true
					})
				}
			}
		}
	}
}
