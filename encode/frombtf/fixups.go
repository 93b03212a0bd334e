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
// member to its group. reverseDims says that the compiler wrote the
// dimensions of multi-dimensional arrays in reverse order (gccDims).
func fixMember(m *btf.Spec, f encode.Features, reverseDims bool) (fixed *btf.Spec, alias []btf.TypeID) {
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
		if reverseDims {
			reverseArrayDims(m, arrays)
		}
	}
	if !reshape {
		return m, alias
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
	}), nil
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

// reverseArrayDims puts the dimensions of m's multi-dimensional arrays
// (m's ARRAYs, in ID order) in C's order, outermost first, where a gcc
// before 14 wrote them innermost first (gccDims): `int a[2][3]` as an
// ARRAY of 3 of an ARRAY of 2 of int. gcc makes one such chain of
// ARRAYs per DWARF array type (one per dimension, each inner one its
// own, referred to only by the one outside it), so a chain is an ARRAY
// followed through its elements while the element is an ARRAY that no
// other type of m refers to; an element ARRAY that something else uses
// too is an array type of its own (typeof) and starts a chain of its
// own. The lengths along each chain are reversed in place; the element
// types stay as they are.
func reverseArrayDims(m *btf.Spec, arrays []btf.TypeID) {
	// refs counts the references to each of m's ARRAYs.
	refs := make(map[uint32]int, len(arrays))
	for _, id := range arrays {
		refs[uint32(id)] = 0
	}
	count := func(p *uint32) {
		if n, ok := refs[*p]; ok {
			refs[*p] = n + 1
		}
	}
	var info, st uint32 // declared once, outside the loop: their addresses escape to the callback
	var ext []uint32
	for id := m.FirstID(); id < m.NextID(); id++ {
		_, info, st, ext = m.RawType(id)
		btf.ForEachTypeRef(info, &st, ext, count)
	}
	elem := func(id btf.TypeID) uint32 {
		_, _, _, e := m.RawType(id)
		return e[0]
	}
	// inner: the ARRAYs that are the private element of another.
	inner := make(map[uint32]bool)
	for _, id := range arrays {
		if e := elem(id); refs[e] == 1 {
			inner[e] = true
		}
	}
	var chain []btf.TypeID
	for _, id := range arrays {
		if inner[uint32(id)] {
			continue
		}
		chain = append(chain[:0], id)
		for e := elem(id); inner[e] && len(chain) <= len(arrays); e = elem(btf.TypeID(e)) {
			chain = append(chain, btf.TypeID(e))
		}
		for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
			ni, nj := nelems(m, chain[i]), nelems(m, chain[j])
			setNelems(m, chain[i], nj)
			setNelems(m, chain[j], ni)
		}
	}
}

func nelems(m *btf.Spec, id btf.TypeID) uint32 {
	_, _, _, ext := m.RawType(id)
	return ext[2]
}

func setNelems(m *btf.Spec, id btf.TypeID, n uint32) {
	name, info, st, ext := m.RawType(id)
	ext[2] = n
	m.SetRaw(id, name, info, st, ext...)
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
