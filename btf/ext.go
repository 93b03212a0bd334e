package btf

import (
	"encoding/binary"
	"fmt"
)

// ExtMagic is the magic of a .BTF.ext section (the BTF magic).
const ExtMagic = Magic

// extHeaderMin is the length of a .BTF.ext header with the function and
// line information only; extHeaderCORE the length of one that also has
// the CO-RE relocation fields.
const (
	extHeaderMin  = 24
	extHeaderCORE = 32
	// CORERecordSize is the size of one CO-RE relocation record
	// (struct bpf_core_relo): insn_off, type_id, access_str_off, kind.
	CORERecordSize = 16
)

// COREKind is a CO-RE relocation's kind (enum bpf_core_relo_kind).
type COREKind uint32

// The CO-RE relocation kinds, with their values in the format.
const (
	COREFieldByteOffset COREKind = 0
	COREFieldByteSize   COREKind = 1
	COREFieldExists     COREKind = 2
	COREFieldSigned     COREKind = 3
	COREFieldLShiftU64  COREKind = 4
	COREFieldRShiftU64  COREKind = 5
	CORETypeIDLocal     COREKind = 6
	CORETypeIDTarget    COREKind = 7
	CORETypeExists      COREKind = 8
	CORETypeSize        COREKind = 9
	COREEnumvalExists   COREKind = 10
	COREEnumvalValue    COREKind = 11
	CORETypeMatches     COREKind = 12
)

var coreKindNames = [...]string{
	"byte_off", "byte_sz", "field_exists", "signed", "lshift_u64", "rshift_u64",
	"local_type_id", "target_type_id", "type_exists", "type_size",
	"enumval_exists", "enumval_value", "type_matches",
}

// String is the kind's name as libbpf's logs spell it ("byte_off").
func (k COREKind) String() string {
	if int(k) < len(coreKindNames) {
		return coreKindNames[k]
	}
	return fmt.Sprintf("kind %d", uint32(k))
}

// IsField reports the field-based kinds: byte offset and size, field
// exists, signed, left and right shift.
func (k COREKind) IsField() bool { return k <= COREFieldRShiftU64 }

// IsType reports the type-based kinds: local and target type ID, type
// exists, type size, type matches.
func (k COREKind) IsType() bool {
	return (k >= CORETypeIDLocal && k <= CORETypeSize) || k == CORETypeMatches
}

// IsEnumval reports the enumerator-based kinds: enumerator exists, its
// value.
func (k COREKind) IsEnumval() bool { return k == COREEnumvalExists || k == COREEnumvalValue }

// CORERelo is one CO-RE relocation record of a BPF object's .BTF.ext:
// the instruction at InsnOff (bytes) of section Section needs the
// relocation Kind of local type TypeID along the access string at
// AccessStrOff of the object's .BTF string table.
type CORERelo struct {
	Section      string // the program section's name (from .BTF's strings)
	InsnOff      uint32
	TypeID       TypeID
	AccessStrOff uint32
	Kind         COREKind
	// Offset is where the record starts in the .BTF.ext section, for
	// error messages.
	Offset int
}

// ParseCORERelos decodes the CO-RE relocation records of a .BTF.ext
// section (ext, its bytes) whose strings and types are those of s, the
// object's .BTF. A section without CO-RE relocations (a header of 24
// bytes, or an empty CO-RE part) gives none. Every record is checked as
// libbpf checks it when it opens the object: the header's bounds, the
// record size (at least 16 bytes, a multiple of 4), the section names,
// and each record's type ID (a type of s) and access string (a string
// of s); kind is checked against the known kinds. Errors are
// *ParseError with the offset in ext.
func ParseCORERelos(ext []byte, s *Spec) ([]CORERelo, error) {
	if len(ext) < 8 {
		return nil, perr(0, ".BTF.ext: truncated header: %d bytes", len(ext))
	}
	var bo binary.ByteOrder
	switch {
	case ext[0] == 0x9f && ext[1] == 0xeb:
		bo = binary.LittleEndian
	case ext[0] == 0xeb && ext[1] == 0x9f:
		bo = binary.BigEndian
	default:
		return nil, perr(0, ".BTF.ext: bad magic 0x%02x%02x", ext[0], ext[1])
	}
	if ext[2] != 1 {
		return nil, perr(2, ".BTF.ext: unsupported version %d", ext[2])
	}
	if ext[3] != 0 {
		return nil, perr(3, ".BTF.ext: unsupported flags 0x%x", ext[3])
	}
	hdrLen := bo.Uint32(ext[4:])
	if hdrLen < extHeaderMin || uint64(hdrLen) > uint64(len(ext)) {
		return nil, perr(4, ".BTF.ext: header length %d out of range [%d,%d]", hdrLen, extHeaderMin, len(ext))
	}
	if hdrLen < extHeaderCORE {
		return nil, nil
	}
	off, n := bo.Uint32(ext[24:]), bo.Uint32(ext[28:])
	if n == 0 {
		return nil, nil
	}
	start := uint64(hdrLen) + uint64(off)
	end := start + uint64(n)
	if off%4 != 0 {
		return nil, perr(24, ".BTF.ext: CO-RE relocations at 0x%x are not 4-byte aligned", off)
	}
	if end > uint64(len(ext)) {
		return nil, perr(24, ".BTF.ext: CO-RE relocations [0x%x,0x%x) past the section's end 0x%x", start, end, len(ext))
	}
	data := ext[start:end]
	at := func(i int) int64 { return int64(start) + int64(i) }
	if len(data) < 4 {
		return nil, perr(at(0), ".BTF.ext: CO-RE relocations: no record size")
	}
	recSize := bo.Uint32(data)
	if recSize < CORERecordSize || recSize%4 != 0 {
		return nil, perr(at(0), ".BTF.ext: CO-RE record size %d: want a multiple of 4, at least %d", recSize, CORERecordSize)
	}
	var relos []CORERelo
	i := 4
	for i < len(data) {
		if len(data)-i < 8 {
			return nil, perr(at(i), ".BTF.ext: CO-RE relocations: truncated section entry")
		}
		nameOff, count := bo.Uint32(data[i:]), bo.Uint32(data[i+4:])
		if !s.ValidStringOff(nameOff) || nameOff == 0 {
			return nil, perr(at(i), ".BTF.ext: CO-RE relocations: section name offset %d is not a string of .BTF", nameOff)
		}
		if count == 0 {
			return nil, perr(at(i+4), ".BTF.ext: CO-RE relocations of section %q: no records", s.String(nameOff))
		}
		sec := s.String(nameOff)
		i += 8
		if uint64(count)*uint64(recSize) > uint64(len(data)-i) {
			return nil, perr(at(i), ".BTF.ext: CO-RE relocations of section %q: %d records of %d bytes past the end", sec, count, recSize)
		}
		for range count {
			r := CORERelo{
				Section:      sec,
				InsnOff:      bo.Uint32(data[i:]),
				TypeID:       TypeID(bo.Uint32(data[i+4:])),
				AccessStrOff: bo.Uint32(data[i+8:]),
				Kind:         COREKind(bo.Uint32(data[i+12:])),
				Offset:       int(at(i)),
			}
			switch {
			case r.Kind > CORETypeMatches:
				return nil, perr(at(i+12), ".BTF.ext: CO-RE relocation of section %q: unknown kind %d", sec, r.Kind)
			case r.TypeID == 0 || !s.Has(r.TypeID):
				return nil, perr(at(i+4), ".BTF.ext: CO-RE relocation of section %q: type ID %d is not a type of .BTF (last %d)", sec, r.TypeID, s.NextID()-1)
			case !s.ValidStringOff(r.AccessStrOff):
				return nil, perr(at(i+8), ".BTF.ext: CO-RE relocation of section %q: access string offset %d is not a string of .BTF", sec, r.AccessStrOff)
			case r.InsnOff%8 != 0:
				return nil, perr(at(i), ".BTF.ext: CO-RE relocation of section %q: instruction offset %d is not a multiple of 8", sec, r.InsnOff)
			}
			relos = append(relos, r)
			i += int(recSize)
		}
	}
	return relos, nil
}
