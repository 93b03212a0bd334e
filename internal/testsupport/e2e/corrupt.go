package e2e

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// CorruptFuncProto returns a copy of the raw (little-endian, base) BTF in
// data in which the first parameter of the first FUNC_PROTO that has one
// refers to a type ID that does not exist, and that FUNC_PROTO's ID.
//
// The kernel's boot-time parse of vmlinux BTF checks each type's own record
// (btf_check_all_metas) but not what its references point to, so such a
// kernel still registers its BTF; BPF_BTF_LOAD runs the full verifier,
// which rejects it ("Invalid arg#1"). The size of the BTF does not change.
func CorruptFuncProto(data []byte) ([]byte, uint32, error) {
	out, types, err := typeSection(data)
	if err != nil {
		return nil, 0, err
	}
	le := binary.LittleEndian
	var first uint32
	firstOff := 0
	n, err := walkTypes(types, func(id uint32, off int, kind btf.Kind, vlen int) {
		// btf_param is {name_off, type}: the first parameter's type is
		// the record's second trailing word.
		if kind == btf.KindFuncProto && first == 0 && vlen > 0 && le.Uint32(types[off+12+4:]) != 0 {
			first, firstOff = id, off
		}
	})
	if err != nil {
		return nil, 0, err
	}
	if first == 0 {
		return nil, 0, errors.New("no FUNC_PROTO with parameters")
	}
	// btf_param is {name_off, type}: corrupt the type of parameter 1.
	le.PutUint32(types[firstOff+12+4:], n+1000)
	return out, first, nil
}

// CorruptName returns a copy of the raw (little-endian) BTF in data, base
// or split, in which the first type that has a name gets the name offset
// 0xffffffff, and that type's number within data (1 for its first type,
// whatever IDs a base gives them).
//
// No string section is that long (the kernel's limit is 0xffffff), so the
// kernel's first pass over the types, btf_check_all_metas, which is all
// it runs on a module's BTF besides type tags, rejects it ("Invalid
// name_offset") and btf_module_notify refuses the module. The size of the
// BTF does not change.
func CorruptName(data []byte) ([]byte, uint32, error) {
	out, types, err := typeSection(data)
	if err != nil {
		return nil, 0, err
	}
	le := binary.LittleEndian
	var first uint32
	_, err = walkTypes(types, func(id uint32, off int, kind btf.Kind, vlen int) {
		if first == 0 && le.Uint32(types[off:]) != 0 {
			first = id
			le.PutUint32(types[off:], 0xffffffff)
		}
	})
	if err != nil {
		return nil, 0, err
	}
	if first == 0 {
		return nil, 0, errors.New("no type has a name")
	}
	return out, first, nil
}

// typeSection returns a copy of data, raw little-endian BTF, and the
// copy's type section.
func typeSection(data []byte) (out, types []byte, err error) {
	le := binary.LittleEndian
	if len(data) < 24 || le.Uint16(data) != 0xeb9f {
		return nil, nil, errors.New("not little-endian raw BTF")
	}
	hdrLen := le.Uint32(data[4:])
	typeOff, typeLen := le.Uint32(data[8:]), le.Uint32(data[12:])
	start := uint64(hdrLen) + uint64(typeOff)
	end := start + uint64(typeLen)
	if end > uint64(len(data)) {
		return nil, nil, errors.New("type section beyond the end of the data")
	}
	out = append([]byte(nil), data...)
	return out, out[start:end], nil
}

// walkTypes calls fn for each type record in types with its number
// (counting from 1), offset, kind and vlen, and returns how many there are.
func walkTypes(types []byte, fn func(id uint32, off int, kind btf.Kind, vlen int)) (uint32, error) {
	le := binary.LittleEndian
	var n uint32
	for off := 0; off < len(types); n++ {
		if off+12 > len(types) {
			return 0, fmt.Errorf("type %d at offset %d truncated", n+1, off)
		}
		info := le.Uint32(types[off+4:])
		kind, vlen := btf.KindOf(info), btf.VlenOf(info)
		words := btf.ExtraWords(kind, vlen)
		if words < 0 {
			return 0, fmt.Errorf("type %d: unknown kind %d", n+1, kind)
		}
		if off+12+4*words > len(types) {
			return 0, fmt.Errorf("type %d at offset %d truncated", n+1, off)
		}
		fn(n+1, off, kind, vlen)
		off += 12 + 4*words
	}
	return n, nil
}
