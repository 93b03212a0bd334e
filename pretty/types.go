package pretty

import (
	"encoding/binary"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/ctype"
)

// maxDepth bounds the nesting of structs and unions the printers recurse
// into, so that a struct holding itself in malformed BTF ends in an
// error instead of a stack overflow. Chains of typedefs, modifiers and
// arrays are followed in loops, as far as the types go (chainSteps).
const maxDepth = 64

// chainSteps is how many links of a chain of type references a walk
// follows: more than the types there are means the chain loops.
func (ts *types) chainSteps() int { return int(ts.spec.NextID()) }

// types is the decoder's view of a Spec: pahole's rules for finding a type
// by name and for the sizes and offsets of members, computed the way
// pahole's BTF loader computes them.
type types struct {
	spec    *btf.Spec
	ptrSize int
	sz      ctype.Sizer

	byName map[string]btf.TypeID // first struct, union, typedef or enum of each name
	enums  map[string]btf.TypeID // first enum of each name
}

func newTypes(spec *btf.Spec, ptrSize int) *types {
	if ptrSize == 0 {
		ptrSize = int(ctype.PointerSize(spec)) // libbpf's guess, as pahole's BTF loader takes it
	}
	ts := &types{spec: spec, ptrSize: ptrSize, byName: map[string]btf.TypeID{}, enums: map[string]btf.TypeID{}}
	ts.sz = ctype.Sizer{Spec: spec, PtrSize: uint32(ptrSize)}
	for id := btf.TypeID(1); id < spec.NextID(); id++ {
		t := spec.Type(id)
		switch t.Kind() {
		case btf.KindStruct, btf.KindUnion, btf.KindTypedef:
		case btf.KindEnum, btf.KindEnum64:
			if name := t.Name(); name != "" {
				if _, ok := ts.enums[name]; !ok {
					ts.enums[name] = id
				}
			}
		default:
			continue
		}
		if name := t.Name(); name != "" {
			if _, ok := ts.byName[name]; !ok {
				ts.byName[name] = id
			}
		}
	}
	return ts
}

// typ returns the type with the given ID, and false for an ID the Spec
// does not have (void included), so that a dangling reference in
// malformed BTF is a value, not a panic.
func (ts *types) typ(id btf.TypeID) (btf.Type, bool) {
	if !ts.spec.Has(id) {
		return btf.Type{}, false
	}
	return ts.spec.Type(id), true
}

// find returns the first type named name that pahole's lookup by name
// considers: a struct, union, typedef or enum, in ID order; forward
// declarations are not types of their own in BTF.
func (ts *types) find(name string) (btf.Type, bool) {
	id, ok := ts.byName[name]
	if !ok {
		return btf.Type{}, false
	}
	return ts.spec.Type(id), true
}

// findEnum returns the first enum (or 64-bit enum) named name.
func (ts *types) findEnum(name string) (btf.Type, bool) {
	id, ok := ts.enums[name]
	if !ok {
		return btf.Type{}, false
	}
	return ts.spec.Type(id), true
}

// strip follows typedefs and modifiers to the type they name; false for
// void, a dangling reference or a loop.
func (ts *types) strip(id btf.TypeID) (btf.Type, bool) {
	for range ts.chainSteps() {
		t, ok := ts.typ(id)
		if !ok {
			return t, false
		}
		if !btf.IsModifier(t.Kind()) {
			return t, true
		}
		id = t.Ref()
	}
	return btf.Type{}, false
}

// baseType follows typedefs (only typedefs, as pahole does) to an integer
// or floating-point type: what pahole prints as a number.
func (ts *types) baseType(id btf.TypeID) (btf.Type, bool) {
	for range ts.chainSteps() {
		t, ok := ts.typ(id)
		if !ok {
			return t, false
		}
		switch t.Kind() {
		case btf.KindInt, btf.KindFloat:
			return t, true
		case btf.KindTypedef:
			id = t.Ref()
		default:
			return t, false
		}
	}
	return btf.Type{}, false
}

// size is a type's size in bytes as pahole computes it (tag__size,
// internal/ctype); 0 for what has none or cannot be found, and for a size
// past 2 GiB, which no record has (malformed BTF).
func (ts *types) size(id btf.TypeID) int {
	n := ts.sz.Size(id)
	if n > 1<<31 {
		return 0
	}
	return int(n)
}

// member is a struct or union member placed the way pahole's BTF loader
// places it: byteOff and byteSize give the storage it is read from, and a
// bitfield's bits start at bitOff within it (counted from the least
// significant bit).
type member struct {
	index    int
	name     string
	typ      btf.TypeID
	byteOff  int
	byteSize int
	bitOff   int // bitfields only
	bits     int // bitfield size; 0 when not a bitfield
	last     bool
}

// member returns member i of a struct or union.
func (ts *types) member(t btf.Type, i int) member {
	m := t.Member(i)
	bitOffset, bits := t.MemberBits(i)
	mb := member{
		index: i,
		name:  ts.spec.String(m.NameOff),
		typ:   m.Type,
		bits:  int(bits),
		last:  i == t.Vlen()-1,
	}
	mb.byteOff = int(bitOffset / 8)
	st, ok := ts.strip(m.Type)
	if !ok {
		return mb
	}
	mb.byteSize = ts.size(st.ID)
	if mb.byteSize == 0 || bits == 0 {
		return mb
	}
	switch st.Kind() {
	case btf.KindInt, btf.KindFloat, btf.KindEnum, btf.KindEnum64:
		unit := mb.byteSize * 8
		mb.byteOff = int(bitOffset) / unit * unit / 8
		mb.bitOff = int(bitOffset) - mb.byteOff*8
	}
	return mb
}

// findMember returns the first direct member of a struct or union with
// the given name (members of anonymous members are not searched, as in
// pahole).
func (ts *types) findMember(t btf.Type, name string) (member, bool) {
	if t.Kind() != btf.KindStruct && t.Kind() != btf.KindUnion {
		return member{}, false
	}
	for i := 0; i < t.Vlen(); i++ {
		if ts.spec.String(t.Member(i).NameOff) == name {
			return ts.member(t, i), true
		}
	}
	return member{}, false
}

// native is the byte order of the data: pahole reads records in the
// byte order of the machine it runs on.
var native = binary.NativeEndian

// signedValue reads size bytes at the start of b the way pahole does
// (base_type__value): as a signed integer of that size, sign-extended to
// 64 bits, and 0 for any other size or too short a b.
func signedValue(b []byte, size int) uint64 {
	if len(b) < size {
		return 0
	}
	switch size {
	case 1:
		return uint64(int64(int8(b[0])))
	case 2:
		return uint64(int64(int16(native.Uint16(b))))
	case 4:
		return uint64(int64(int32(native.Uint32(b))))
	case 8:
		return native.Uint64(b)
	}
	return 0
}

// unsignedValue reads size (1, 2, 4 or 8) bytes at the start of b as an
// unsigned integer; 0 for any other size or too short a b.
func unsignedValue(b []byte, size int) uint64 {
	if len(b) < size {
		return 0
	}
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(native.Uint16(b))
	case 4:
		return uint64(native.Uint32(b))
	case 8:
		return native.Uint64(b)
	}
	return 0
}

// bitfieldValue extracts a bitfield the way pahole does: the storage read
// as a signed integer of its size, masked and shifted (never sign-extended).
func bitfieldValue(b []byte, m *member) uint64 {
	v := signedValue(b, m.byteSize)
	if m.bits >= 64 {
		return v >> uint(m.bitOff)
	}
	mask := (uint64(1)<<uint(m.bits) - 1) << uint(m.bitOff)
	return (v & mask) >> uint(m.bitOff)
}
