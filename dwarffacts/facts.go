package dwarffacts

import "github.com/btfkit/btfkit/btf"

// Facts are the DWARF-only facts about the types of one Spec. The zero
// value is empty and ready to fill; a nil *Facts answers every query with
// the zero answer.
type Facts struct {
	align       map[btf.TypeID]uint32
	memberAlign map[memberKey]uint32
	dims        map[btf.TypeID][]uint32
	nested      map[btf.TypeID]bool
	nestedIn    map[btf.TypeID][]Nested
	entries     map[uint64]btf.TypeID
	decl        map[btf.TypeID]Decl
	class       map[btf.TypeID]bool // class.go
	atomic      map[btf.TypeID]bool
	language    uint16 // class.go
}

// Decl is where a type is declared: DW_AT_decl_file as a path (the line
// program's name joined with its directory, as elfutils names it) and
// DW_AT_decl_line, and the offset of its entry in .debug_info (pahole -I
// prints it). File is "" when the entry has none.
type Decl struct {
	File   string
	Line   uint32
	Offset uint64
}

// Nested is a type defined in the body of a struct or union (clang does
// this for anonymous types in C; C++ for any type), and where: after
// After of the container's members.
type Nested struct {
	After int
	ID    btf.TypeID
}

type memberKey struct {
	id btf.TypeID
	i  int
}

// SetAlign records the DW_AT_alignment of the struct or union id.
func (f *Facts) SetAlign(id btf.TypeID, align uint32) {
	if f.align == nil {
		f.align = make(map[btf.TypeID]uint32)
	}
	f.align[id] = align
}

// Align is the DW_AT_alignment of the struct or union id, 0 when it has none.
func (f *Facts) Align(id btf.TypeID) uint32 {
	if f == nil {
		return 0
	}
	return f.align[id]
}

// SetMemberAlign records the DW_AT_alignment of member i (counting the
// members the BTF type has) of the struct or union id.
func (f *Facts) SetMemberAlign(id btf.TypeID, i int, align uint32) {
	if f.memberAlign == nil {
		f.memberAlign = make(map[memberKey]uint32)
	}
	f.memberAlign[memberKey{id, i}] = align
}

// MemberAlign is the DW_AT_alignment of member i of the struct or union id,
// 0 when it has none.
func (f *Facts) MemberAlign(id btf.TypeID, i int) uint32 {
	if f == nil {
		return 0
	}
	return f.memberAlign[memberKey{id, i}]
}

// SetDims records the dimensions, outermost first, of the array id.
func (f *Facts) SetDims(id btf.TypeID, dims []uint32) {
	if f.dims == nil {
		f.dims = make(map[btf.TypeID][]uint32)
	}
	f.dims[id] = dims
}

// Dims returns the dimensions of the array id, outermost first, or nil when
// none were recorded (then the BTF element count is the only dimension).
// The DWARF array is one type with all its dimensions; its BTF (package
// encode's, as pahole 1.32 writes it) is one ARRAY per dimension, id the
// outermost, so a printer takes the element past the inner ARRAYs.
func (f *Facts) Dims(id btf.TypeID) []uint32 {
	if f == nil {
		return nil
	}
	return f.dims[id]
}

// SetNested records that type id is not defined at the top level of its
// unit but inside a function, a lexical block or another type's body.
func (f *Facts) SetNested(id btf.TypeID) {
	if f.nested == nil {
		f.nested = make(map[btf.TypeID]bool)
	}
	f.nested[id] = true
}

// AddNestedIn records that type id is defined in the body of the struct
// or union container after its first after members. Calls for one
// container come in entry order.
func (f *Facts) AddNestedIn(container btf.TypeID, after int, id btf.TypeID) {
	if f.nestedIn == nil {
		f.nestedIn = make(map[btf.TypeID][]Nested)
	}
	f.nestedIn[container] = append(f.nestedIn[container], Nested{after, id})
}

// NestedIn returns the types defined in the body of the struct or union
// container, in entry order.
func (f *Facts) NestedIn(container btf.TypeID) []Nested {
	if f == nil {
		return nil
	}
	return f.nestedIn[container]
}

// SetAtomic records that the qualifier id (a VOLATILE in the unit's BTF,
// which has no kind of its own for it) is C11's _Atomic, a
// DW_TAG_atomic_type entry.
func (f *Facts) SetAtomic(id btf.TypeID) {
	if f.atomic == nil {
		f.atomic = make(map[btf.TypeID]bool)
	}
	f.atomic[id] = true
}

// Atomic reports whether the qualifier id stands for _Atomic
// (DW_TAG_atomic_type) rather than volatile.
func (f *Facts) Atomic(id btf.TypeID) bool {
	return f != nil && f.atomic[id]
}

// Nested reports whether type id is defined inside a function, a lexical
// block or another type's body rather than at the top level of its unit.
func (f *Facts) Nested(id btf.TypeID) bool {
	return f != nil && f.nested[id]
}

// SetEntry records that a DW_AT_type reference to the DWARF entry at
// global offset off resolves to type id (what pfunct needs to name the
// types of a function's parameters, which the unit's BTF does not hold).
func (f *Facts) SetEntry(off uint64, id btf.TypeID) {
	if f.entries == nil {
		f.entries = make(map[uint64]btf.TypeID)
	}
	f.entries[off] = id
}

// AltOffset is where the entries of a dwz alternate file
// (.gnu_debugaltlink) are keyed: the entry at offset o of that file's
// .debug_info is at AltOffset+o, clear of the file's own offsets. A
// DW_FORM_GNU_ref_alt reference to o resolves with TypeAt(AltOffset+o).
const AltOffset = 1 << 61

// TypeAt returns the type a DW_AT_type reference to the entry at global
// offset off resolves to, and whether the entry was made a type.
func (f *Facts) TypeAt(off uint64) (btf.TypeID, bool) {
	if f == nil {
		return 0, false
	}
	id, ok := f.entries[off]
	return id, ok
}

// SetDecl records where the type id is declared.
func (f *Facts) SetDecl(id btf.TypeID, d Decl) {
	if f.decl == nil {
		f.decl = make(map[btf.TypeID]Decl)
	}
	f.decl[id] = d
}

// Decl is where the type id is declared; the zero Decl when that was not
// recorded (the encoder records it for structs, unions, enums and
// typedefs when asked: encode.Options.DeclInfo).
func (f *Facts) Decl(id btf.TypeID) Decl {
	if f == nil {
		return Decl{}
	}
	return f.decl[id]
}
