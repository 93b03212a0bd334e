package btf

import (
	"encoding/binary"
	"fmt"
	"sync"
)

// TypeID identifies a type. ID 0 is void; a base BTF numbers its types from
// 1, a split BTF continues after its base's last ID.
type TypeID uint32

// header is a type's common 12-byte record, in host order.
type header struct {
	NameOff  uint32
	Info     uint32
	SizeType uint32 // size for sized kinds, a type ID for reference kinds
}

// Spec is a table of BTF types indexed by ID, with its string table. It may
// be split: then it extends a base Spec, its IDs start after the base's last
// ID and its string offsets after the base's string table.
//
// A Spec is flat: one header per type plus one slice of trailing 32-bit words
// shared by all types, so millions of types cost three allocations.
//
// Concurrent reads are safe: any number of goroutines may call the methods
// that do not change the Spec (Type, RawType, String, FindString,
// Marshal, Check, ...) on one Spec, and on the base that several split
// Specs share, also while each of them adds types and strings to its own
// split Spec. Changing a Spec (Add, AddString, SetRaw, SetRawStrings, ...)
// must not overlap with any other use of that same Spec.
type Spec struct {
	base     *Spec
	startID  TypeID // ID of hdrs[0]
	startStr uint32 // string offset of strs[0]

	hdrs     []header
	extStart []uint32 // start of each type's trailing words in words; len(hdrs)+1 entries
	words    []uint32

	strs []byte // this Spec's own string table; strs[0] == 0
	// strIdx finds a string of strs by content: the offset where it
	// first starts. It is built once, on the first lookup or AddString
	// (strIdxOnce), so that concurrent readers may share the Spec.
	strIdx     map[string]uint32
	strIdxOnce sync.Once

	order  binary.ByteOrder // byte order of the input it was parsed from
	hdrLen uint32           // header length of that input (24 or more)

	layout []KindLayout // the kind layout section (layout.go); nil when none
}

// ByteOrder is the byte order of the raw BTF the Spec was parsed from
// (little endian for a Spec built in memory).
func (s *Spec) ByteOrder() binary.ByteOrder {
	if s.order == nil {
		return binary.LittleEndian
	}
	return s.order
}

// NewSpec returns an empty base Spec: only void, and the empty string.
func NewSpec() *Spec {
	return &Spec{startID: 1, extStart: []uint32{0}, strs: []byte{0}}
}

// NewSplitSpec returns an empty Spec that extends base.
func NewSplitSpec(base *Spec) *Spec {
	return &Spec{
		base:     base,
		startID:  base.NextID(),
		startStr: base.startStr + uint32(len(base.strs)),
		extStart: []uint32{0},
		strs:     []byte{0},
	}
}

// Base returns the base Spec of a split Spec, or nil.
func (s *Spec) Base() *Spec { return s.base }

// FirstID is the ID of this Spec's first own type (1 for a base Spec).
func (s *Spec) FirstID() TypeID { return s.startID }

// NextID is the ID the next added type will get; it is one past the last ID.
func (s *Spec) NextID() TypeID { return s.startID + TypeID(len(s.hdrs)) }

// NumTypes is the number of this Spec's own types (base types not counted).
func (s *Spec) NumTypes() int { return len(s.hdrs) }

// NumWords is the number of trailing words (members, parameters, ...) of
// this Spec's own types, all together.
func (s *Spec) NumWords() int { return len(s.words) }

// StringsStart is the offset of this Spec's own string table: 0 for a base,
// the base's string table length for a split Spec.
func (s *Spec) StringsStart() uint32 { return s.startStr }

// StringsLen is the size in bytes of this Spec's own string table.
func (s *Spec) StringsLen() int { return len(s.strs) }

// RawStrings returns this Spec's own string table bytes (not a copy).
func (s *Spec) RawStrings() []byte { return s.strs }

// owner returns the Spec in the base chain that holds id, or nil.
func (s *Spec) owner(id TypeID) *Spec {
	for sp := s; sp != nil; sp = sp.base {
		if id >= sp.startID {
			if int(id-sp.startID) < len(sp.hdrs) {
				return sp
			}
			return nil
		}
	}
	return nil
}

// Has reports whether id names a type of this Spec or its base (void excluded).
func (s *Spec) Has(id TypeID) bool { return id != 0 && s.owner(id) != nil }

// Type returns a view of the type with the given ID, from this Spec or its
// base. It panics if the ID is out of range; use Has or NextID to check.
// ID 0 gives a zero Type whose Kind is KindUnknown (void).
func (s *Spec) Type(id TypeID) Type {
	if id == 0 {
		return Type{spec: s}
	}
	sp := s.owner(id)
	if sp == nil {
		panic(fmt.Sprintf("btf: type id %d out of range [1,%d)", id, s.NextID()))
	}
	i := int(id - sp.startID)
	return Type{
		spec: s,
		ID:   id,
		hdr:  sp.hdrs[i],
		ext:  sp.words[sp.extStart[i]:sp.extStart[i+1]:sp.extStart[i+1]],
	}
}

// AddRaw appends a type given its header fields and trailing words, which
// must match the kind and vlen in info. It returns the new type's ID.
// Name offsets and type IDs are taken as given; nothing is checked here
// (see Check).
func (s *Spec) AddRaw(nameOff, info, sizeType uint32, ext ...uint32) TypeID {
	id := s.NextID()
	s.hdrs = append(s.hdrs, header{nameOff, info, sizeType})
	s.words = append(s.words, ext...)
	s.extStart = append(s.extStart, uint32(len(s.words)))
	return id
}

// Add appends a type with the given name (interned), kind, vlen, kind_flag,
// size-or-type field and trailing words, and returns its ID.
func (s *Spec) Add(name string, k Kind, vlen int, kindFlag bool, sizeType uint32, ext ...uint32) TypeID {
	return s.AddRaw(s.AddString(name), Info(k, vlen, kindFlag), sizeType, ext...)
}

// SetRaw replaces the header and trailing words of one of this Spec's own
// types in place. The number of trailing words must not change.
func (s *Spec) SetRaw(id TypeID, nameOff, info, sizeType uint32, ext ...uint32) {
	i := int(id - s.startID)
	s.hdrs[i] = header{nameOff, info, sizeType}
	copy(s.words[s.extStart[i]:s.extStart[i+1]], ext)
}

// Reserve grows the Spec's capacity for n more types and w more trailing words.
func (s *Spec) Reserve(n, w int) {
	if cap(s.hdrs)-len(s.hdrs) < n {
		h := make([]header, len(s.hdrs), len(s.hdrs)+n)
		copy(h, s.hdrs)
		s.hdrs = h
		e := make([]uint32, len(s.extStart), len(s.extStart)+n)
		copy(e, s.extStart)
		s.extStart = e
	}
	if cap(s.words)-len(s.words) < w {
		ws := make([]uint32, len(s.words), len(s.words)+w)
		copy(ws, s.words)
		s.words = ws
	}
}
