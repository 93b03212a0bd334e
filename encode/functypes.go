package encode

import (
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/encode/internal/funcvar"
)

// What function and variable selection asks of a unit's types
// (funcvar.Types), answered from the unit's records once emit has given
// them their IDs. Sizes, alignments and member offsets are pahole's.

var _ funcvar.Types = (*unitConv)(nil)

// AddedIndexInt is the ID of the "int" the unit's fragment got as its
// arrays' index type because its DWARF has none, 0 if none (for
// funcvar's log: pahole's encoder adds that int once per file).
func (c *unitConv) AddedIndexInt() uint32 { return c.addedInt }

// Type returns the type entry at off.
func (c *unitConv) Type(off uint64) (funcvar.Type, bool) {
	i := c.find(off)
	if i < 0 {
		return funcvar.Type{}, false
	}
	r := &c.recs[i]
	t := funcvar.Type{Tag: r.tag, Name: r.name, HasType: r.has&hasType != 0, Type: r.typ}
	if r.has&hasByteSize != 0 {
		t.Size = r.size
	}
	return t, true
}

// Size is pahole's tag__size of the type at off: the size a variable of
// that type takes.
func (c *unitConv) Size(off uint64, addrSize int) uint64 { return c.tagSize(off, addrSize, 0) }

func (c *unitConv) tagSize(off uint64, addrSize int, depth int) uint64 {
	if depth > 64 {
		return 0
	}
	i := c.find(off)
	if i < 0 {
		return 0
	}
	r := &c.recs[i]
	switch r.tag {
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		return uint64(addrSize)
	case dwarf.TagBaseType, dwarf.TagEnumerationType:
		return r.size
	case dwarf.TagSubroutineType:
		if r.size != 0 {
			return r.size
		}
		return uint64(addrSize)
	}
	if r.has&hasType == 0 {
		if isStructTag(r.tag) && r.size == 1 && r.nMembers == 0 {
			return 0
		}
		return r.size
	}
	size := c.tagSize(r.typ, addrSize, depth+1)
	if r.tag == dwarf.TagArrayType {
		size *= c.elements(r)
	}
	return size
}

// Packed reports whether the struct at off is packed (structIsPacked).
func (c *unitConv) Packed(off uint64, addrSize int) bool {
	i := c.find(off)
	return i >= 0 && c.structIsPacked(i, addrSize)
}

// Member is pahole's get_member_with_offset: the type at off is followed
// through entries without a byte size (typedefs, qualifiers) to a struct,
// whose first data member starting byteOff bytes in is returned.
func (c *unitConv) Member(off, byteOff uint64) (funcvar.Member, bool) {
	has := uint32(hasType)
	for n := 0; n < 64 && has&hasType != 0; n++ {
		i := c.find(off)
		if i < 0 {
			return funcvar.Member{}, false
		}
		r := &c.recs[i]
		if r.has&hasByteSize == 0 || r.size == 0 {
			has, off = r.has, r.typ
			continue
		}
		if r.tag != dwarf.TagStructureType {
			return funcvar.Member{}, false
		}
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			if it.kind != itemMember {
				continue
			}
			if bits, ok := it.locationBits(); ok && bits == byteOff*8 {
				return funcvar.Member{Name: it.name, HasType: it.has&hasType != 0, Type: it.typ}, true
			}
		}
		return funcvar.Member{}, false
	}
	return funcvar.Member{}, false
}

// ID returns the BTF ID of the type at off (0: void, or not a type).
func (c *unitConv) ID(off uint64) uint32 { return c.ref(hasType, off) }

// String returns the fragment's reference to s.
func (c *unitConv) String(s string) uint32 { return c.strs.add(s) }

// DeclTags yields the btf_decl_tag values of the GNU annotation chain at
// off.
func (c *unitConv) DeclTags(off uint64, yield func(value string)) {
	c.gnuChain(off, func(a *rec) bool {
		if a.name == annotationDeclTagName {
			yield(a.constString)
		}
		return true
	})
}

// naturalAlign is pahole's natural alignment of the type at rec i.
func (c *unitConv) naturalAlign(i int, addrSize int, depth int) uint64 {
	if i < 0 || depth > 32 {
		return 1
	}
	r := &c.recs[i]
	a := uint64(0)
	switch r.tag {
	case dwarf.TagBaseType, dwarf.TagEnumerationType:
		a = r.size
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		a = uint64(addrSize)
	case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagUnionType:
		for j := r.first; j >= 0; j = c.items[j].next {
			it := &c.items[j]
			if it.kind != itemMember || (it.has&hasMemberLoc == 0 && r.tag != dwarf.TagUnionType) {
				continue
			}
			a = max(a, c.naturalAlign(c.underlying(it.has, it.typ), addrSize, depth+1))
		}
	case dwarf.TagArrayType:
		a = c.naturalAlign(c.underlying(r.has, r.typ), addrSize, depth+1)
	}
	return max(a, 1)
}

// structIsPacked approximates pahole's class__infer_packed_attributes for
// the struct at rec i: a struct without holes or tail padding is packed
// when a member sits at an offset unnatural for it or its size is not a
// multiple of its largest member alignment.
func (c *unitConv) structIsPacked(i int, addrSize int) bool {
	r := &c.recs[i]
	if r.tag != dwarf.TagStructureType && r.tag != dwarf.TagClassType {
		return false
	}
	end := uint64(0)
	maxAlign := uint64(1)
	unnatural := false
	for j := r.first; j >= 0; j = c.items[j].next {
		it := &c.items[j]
		if it.kind != itemMember {
			continue
		}
		bits, ok := it.locationBits()
		if !ok {
			continue
		}
		off := bits / 8
		if off > end && it.bitSize == 0 {
			return false // a hole
		}
		t := c.underlying(it.has, it.typ)
		sz := c.tagSize(it.typ, addrSize, 0)
		if it.bitSize != 0 {
			sz = (it.bitSize + 7) / 8
		}
		end = max(end, off+sz)
		a := c.naturalAlign(t, addrSize, 0)
		if a == 1 {
			continue
		}
		maxAlign = max(maxAlign, a)
		if off%a != 0 {
			unnatural = true
		}
	}
	if r.size > end {
		return false // tail padding
	}
	return unnatural || r.size%maxAlign != 0
}
