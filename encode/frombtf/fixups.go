package frombtf

import (
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
)

// fixMember applies the per-member rules (doc.go) to m, one archive
// member as parsed, and returns the fixed member: m itself, edited in
// place, unless a rule reshapes a record (then a copy). The types a rule
// drops are not copied out of m but marked in alias (nil: none), as
// rebuild takes it, for extract to leave out when it appends the
// member to its group; and so are, in inner (indexed by ID - first; nil
// when none), the inner arrays of flattened arrays, which go unless
// something still refers to them (extract finds out in its pass over the
// types).
func fixMember(m *btf.Spec, f encode.Features) (fixed *btf.Spec, alias []btf.TypeID, inner []bool) {
	first, next := m.FirstID(), m.NextID()
	reshape := false // a record changes its length
	intID := btf.TypeID(0)
	var arrays []btf.TypeID
	for id := first; id < next; id++ {
		name, info, st, ext := m.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindInt:
			if ext[0]&(btf.IntChar<<24) != 0 {
				ext[0] &^= btf.IntChar << 24
			}
			if intID == 0 && st == 4 && ext[0] == btf.IntSigned<<24|32 && m.String(name) == "int" {
				intID = id
			}
		case btf.KindFwd:
			if st != 0 {
				m.SetRaw(id, name, info, 0)
			}
		case btf.KindEnum:
			if st == 0 && btf.VlenOf(info) == 0 {
				// gcc 14 and 15 write "enum foo;" so; the kernel
				// refuses an ENUM of size 0.
				m.SetRaw(id, name, info, 4)
			}
		case btf.KindArray:
			arrays = append(arrays, id)
		case btf.KindFloat:
			reshape = reshape || !f.Has(encode.FeatFloat) || isComplex(m.String(name))
		case btf.KindEnum64:
			reshape = reshape || !f.Has(encode.FeatEnum64)
		case btf.KindTypeTag:
			if !f.Has(encode.FeatTypeTag) {
				to := btf.TypeID(st)
				if to == 0 {
					to = noType
				}
				alias = setAlias(alias, m, id, to)
			}
		case btf.KindDeclTag:
			if !f.Has(encode.FeatDeclTag) {
				alias = setAlias(alias, m, id, noType)
			}
		}
	}
	if arrays != nil && intID == 0 {
		intID = m.AddRaw(m.AddString("int"), btf.Info(btf.KindInt, 0, false), 4, btf.IntSigned<<24|32)
		if alias != nil {
			alias = append(alias, 0)
		}
	}
	if arrays != nil {
		for _, id := range arrays {
			name, info, st, ext := m.RawType(id)
			if ext[1] != uint32(intID) {
				ext[1] = uint32(intID)
				m.SetRaw(id, name, info, st, ext...)
			}
		}
		inner = flattenArrays(m, arrays)
	}
	if !reshape {
		return m, alias, inner
	}
	if inner != nil {
		keepReferenced(m, inner)
		for i, drop := range inner {
			if drop {
				alias = setAlias(alias, m, m.FirstID()+btf.TypeID(i), noType)
			}
		}
	}
	if alias == nil {
		alias = make([]btf.TypeID, m.NumTypes())
	}
	return rebuild(m, alias, func(id btf.TypeID, name, info, st uint32, ext []uint32) (uint32, uint32, uint32, []uint32) {
		switch btf.KindOf(info) {
		case btf.KindFloat:
			if !f.Has(encode.FeatFloat) || isComplex(m.String(name)) {
				return name, btf.Info(btf.KindInt, 0, false), st, append(ext[:0], st*8)
			}
		case btf.KindEnum64:
			if !f.Has(encode.FeatEnum64) {
				// pahole without enum64: an ENUM of the enum's size,
				// each value's low 32 bits.
				vlen := btf.VlenOf(info)
				w := make([]uint32, 0, 2*vlen)
				for i := 0; i < vlen; i++ {
					w = append(w, ext[3*i], ext[3*i+1])
				}
				return name, btf.Info(btf.KindEnum, vlen, false), st, w
			}
		}
		return name, info, st, ext
	}), nil, nil
}

// setAlias marks id in alias (made on first use for m's types) as
// dropped in favour of to.
func setAlias(alias []btf.TypeID, m *btf.Spec, id, to btf.TypeID) []btf.TypeID {
	if alias == nil {
		alias = make([]btf.TypeID, m.NumTypes())
	}
	alias[id-m.FirstID()] = to
	return alias
}

// isComplex reports whether a FLOAT's name is a complex type's, which
// the DWARF route writes as an INT of its size (pahole has no BTF kind
// for it); gcc's BTF calls it a FLOAT.
func isComplex(name string) bool {
	return strings.HasPrefix(name, "complex ") || strings.HasPrefix(name, "_Complex")
}

// flattenArrays turns each array of arrays (of arrays, m's ARRAYs, in
// ID order) into one array of the innermost element type whose length is
// the product of the lengths, as the DWARF route writes a C
// multi-dimensional array (one DWARF array type with a subrange per
// dimension); gcc's BTF nests one ARRAY per dimension. It returns,
// indexed by ID - first, the inner arrays (to drop unless something else
// refers to them: keepReferenced, or extract's pass), or nil when there
// was no array of arrays.
func flattenArrays(m *btf.Spec, arrays []btf.TypeID) []bool {
	first, next := m.FirstID(), m.NextID()
	isArray := func(id uint32) bool {
		if id < uint32(first) || id >= uint32(next) {
			return false
		}
		_, info, _, _ := m.RawType(btf.TypeID(id))
		return btf.KindOf(info) == btf.KindArray
	}
	type flat struct {
		id           btf.TypeID
		elem, nelems uint32
	}
	var flats []flat
	var inner []bool
	for _, id := range arrays {
		_, _, _, ext := m.RawType(id)
		if !isArray(ext[0]) {
			continue
		}
		elem, n := ext[0], uint64(ext[2])
		for hops := 0; isArray(elem) && hops < 64; hops++ {
			_, _, _, e := m.RawType(btf.TypeID(elem))
			if inner == nil {
				inner = make([]bool, m.NumTypes())
			}
			inner[elem-uint32(first)] = true
			n *= uint64(e[2])
			elem = e[0]
		}
		flats = append(flats, flat{id, elem, uint32(min(n, 1<<32-1))})
	}
	if flats == nil {
		return nil
	}
	for _, fl := range flats {
		name, info, st, ext := m.RawType(fl.id)
		ext[0], ext[2] = fl.elem, fl.nelems
		m.SetRaw(fl.id, name, info, st, ext...)
	}
	return inner
}

// keepReferenced clears in inner the types of m that a type of m
// refers to.
func keepReferenced(m *btf.Spec, inner []bool) {
	first, next := m.FirstID(), m.NextID()
	keep := func(p *uint32) {
		if *p >= uint32(first) && *p < uint32(next) {
			inner[*p-uint32(first)] = false
		}
	}
	var info, st uint32 // declared once, outside the loop: their addresses escape to the callbacks
	var ext []uint32
	for id := first; id < next; id++ {
		_, info, st, ext = m.RawType(id)
		btf.ForEachTypeRef(info, &st, ext, keep)
	}
}

// enumForwards finds the FWDs of merged types that are enums: those
// that name an enum (an ENUM or ENUM64 of that name exists and no struct
// or union), or that are used by value (a parameter, a return type, a
// member, an array element; through qualifiers and typedefs), which only
// an enum can be and the kernel refuses of a FWD. gcc 12 writes "enum
// foo;" as a FWD of a struct; the DWARF route writes the
// forward-declared ENUM. The merged types are scanned a range at a time
// (a group's, as it is merged: a group's types refer only to its own),
// and fix turns them, once every name is known.
type enumForwards struct {
	names   map[uint32]uint8 // name offset -> isEnum|isStruct
	fwds    []btf.TypeID
	byValue map[btf.TypeID]bool
}

const isEnum, isStruct = 1, 2

// scan notes the types [first, next) of merged, which refer to no type
// outside that range but void.
func (e *enumForwards) scan(merged *btf.Spec, first, next btf.TypeID) {
	if e.names == nil {
		e.names = map[uint32]uint8{}
		e.byValue = map[btf.TypeID]bool{}
	}
	fwds := len(e.fwds)
	for id := first; id < next; id++ {
		name, info, _, _ := merged.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindEnum, btf.KindEnum64:
			e.names[name] |= isEnum
		case btf.KindStruct, btf.KindUnion:
			e.names[name] |= isStruct
		case btf.KindFwd:
			if !btf.KindFlagOf(info) {
				e.fwds = append(e.fwds, id)
			}
		}
	}
	if len(e.fwds) == fwds {
		return // no FWD to be used by value
	}
	// value follows qualifiers and typedefs from a by-value use to the
	// type used.
	value := func(id uint32) {
		for hops := 0; hops < 32 && id >= uint32(first) && id < uint32(next); hops++ {
			_, info, st, _ := merged.RawType(btf.TypeID(id))
			switch btf.KindOf(info) {
			case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindTypeTag, btf.KindTypedef:
				id = st
				continue
			case btf.KindFwd:
				e.byValue[btf.TypeID(id)] = true
			}
			return
		}
	}
	for id := first; id < next; id++ {
		_, info, st, ext := merged.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindFuncProto:
			value(st)
			for k := 0; k < btf.VlenOf(info); k++ {
				value(ext[2*k+1])
			}
		case btf.KindStruct, btf.KindUnion:
			for k := 0; k < btf.VlenOf(info); k++ {
				value(ext[3*k+1])
			}
		case btf.KindArray:
			value(ext[0])
		}
	}
}

// fix turns the FWDs scan found to be enums into forward-declared
// ENUMs (vlen 0, size 4).
func (e *enumForwards) fix(merged *btf.Spec) {
	for _, id := range e.fwds {
		name, _, _, _ := merged.RawType(id)
		if e.names[name] == isEnum || e.byValue[id] {
			merged.SetRaw(id, name, btf.Info(btf.KindEnum, 0, false), 4)
		}
	}
}
