package funcvar

import "github.com/btfkit/btfkit/dwarf"

// Types is what the rules ask of a unit's types and what its candidates
// refer to. The encoder's unit conversion answers for the unit it has
// converted: offsets are global DWARF offsets of the unit's entries, IDs
// and string references are those of the unit's BTF fragment.
type Types interface {
	// Type returns the type entry at off, if the unit has one there.
	Type(off uint64) (Type, bool)
	// Size is the size a variable of the type at off takes (pahole's
	// tag__size; pointers have addrSize bytes), or 0.
	Size(off uint64, addrSize int) uint64
	// Packed reports whether the struct at off is packed, as pahole
	// infers it from the layout.
	Packed(off uint64, addrSize int) bool
	// Member returns the first data member that starts byteOff bytes
	// into the struct the type at off is, following entries without a
	// byte size (typedefs, qualifiers) to it, as pahole's
	// get_member_with_offset finds it.
	Member(off, byteOff uint64) (Member, bool)
	// ID returns the BTF ID of the type at off in the fragment, 0 for
	// none (void).
	ID(off uint64) uint32
	// String returns the fragment's reference to s, 0 for "".
	String(s string) uint32
	// DeclTags calls yield with the value of each btf_decl_tag in the
	// chain of DW_TAG_GNU_annotation entries that starts at off.
	DeclTags(off uint64, yield func(value string))
}

// Type is a type entry as the rules read it.
type Type struct {
	Tag     dwarf.Tag
	Name    string
	HasType bool   // Type is set
	Type    uint64 // DW_AT_type
	Size    uint64 // DW_AT_byte_size, 0 when absent
}

// Member is a data member of a struct as the rules read it.
type Member struct {
	Name    string
	HasType bool   // Type is set
	Type    uint64 // DW_AT_type
}

// typeLookup finds type entries: a unit's (Types) or those of another
// unit that an abstract origin leads to (otherUnits).
type typeLookup interface {
	Type(off uint64) (Type, bool)
}

// typeByteSize is pahole's size of a parameter's type for register
// assignment: a pointer is a word; otherwise the first DW_AT_byte_size
// found following DW_AT_type.
func typeByteSize(types typeLookup, hasType bool, off uint64, addrSize int) uint64 {
	for n := 0; n < 64 && hasType; n++ {
		t, ok := types.Type(off)
		if !ok {
			return 0
		}
		if t.Tag == dwarf.TagPointerType {
			return uint64(addrSize)
		}
		if t.Size != 0 {
			return t.Size
		}
		hasType, off = t.HasType, t.Type
	}
	return 0
}

// isStructParam is pahole's param__is_struct: the parameter's type is a
// struct, possibly behind const and typedefs.
func isStructParam(types typeLookup, hasType bool, off uint64) bool {
	for n := 0; n < 64 && hasType; n++ {
		t, ok := types.Type(off)
		if !ok {
			return false
		}
		switch t.Tag {
		case dwarf.TagStructureType:
			return true
		case dwarf.TagConstType, dwarf.TagTypedef:
			hasType, off = t.HasType, t.Type
			continue
		}
		return false
	}
	return false
}

// typeID is the fragment's BTF ID of a reference, 0 without one.
func typeID(types Types, hasType bool, off uint64) uint32 {
	if !hasType {
		return 0
	}
	return types.ID(off)
}
