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
	le := binary.LittleEndian
	if len(data) < 24 || le.Uint16(data) != 0xeb9f {
		return nil, 0, errors.New("not little-endian raw BTF")
	}
	hdrLen := le.Uint32(data[4:])
	typeOff, typeLen := le.Uint32(data[8:]), le.Uint32(data[12:])
	start := uint64(hdrLen) + uint64(typeOff)
	end := start + uint64(typeLen)
	if end > uint64(len(data)) {
		return nil, 0, errors.New("type section beyond the end of the data")
	}
	out := append([]byte(nil), data...)
	types := out[start:end]
	// First pass: count types, to pick an ID beyond the last one.
	var n uint32
	type proto struct {
		id  uint32
		off int
	}
	var first *proto
	for off := 0; off < len(types); n++ {
		if off+12 > len(types) {
			return nil, 0, fmt.Errorf("type %d at offset %d truncated", n+1, off)
		}
		info := le.Uint32(types[off+4:])
		kind, vlen := btf.KindOf(info), btf.VlenOf(info)
		words := btf.ExtraWords(kind, vlen)
		if words < 0 {
			return nil, 0, fmt.Errorf("type %d: unknown kind %d", n+1, kind)
		}
		// btf_param is {name_off, type}: the first parameter's type is
		// the record's second trailing word.
		if kind == btf.KindFuncProto && first == nil && vlen > 0 && le.Uint32(types[off+12+4:]) != 0 {
			first = &proto{id: n + 1, off: off}
		}
		off += 12 + 4*words
	}
	if first == nil {
		return nil, 0, errors.New("no FUNC_PROTO with parameters")
	}
	// btf_param is {name_off, type}: corrupt the type of parameter 1.
	le.PutUint32(types[first.off+12+4:], n+1000)
	return out, first.id, nil
}
