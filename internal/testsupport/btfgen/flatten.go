package btfgen

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Flatten joins split BTF to its base as one complete, little-endian BTF
// with the same type IDs and string offsets: the form in which the running
// kernel can check a split BTF's references into its base, since
// BPF_BTF_LOAD takes no base BTF from user space.
func Flatten(split *btf.Spec) ([]byte, error) {
	if split.Base() == nil {
		return nil, fmt.Errorf("flatten: the BTF is not split")
	}
	base := split.Base().Marshal(binary.LittleEndian)
	own := split.Marshal(binary.LittleEndian)
	le := binary.LittleEndian
	bh, sh := le.Uint32(base[4:]), le.Uint32(own[4:])
	btypes := base[bh+le.Uint32(base[8:]):][:le.Uint32(base[12:])]
	bstrs := base[bh+le.Uint32(base[16:]):][:le.Uint32(base[20:])]
	stypes := own[sh+le.Uint32(own[8:]):][:le.Uint32(own[12:])]
	sstrs := own[sh+le.Uint32(own[16:]):][:le.Uint32(own[20:])]
	if uint32(len(bstrs)) != split.StringsStart() {
		return nil, fmt.Errorf("flatten: base strings %d bytes, split's start at %d", len(bstrs), split.StringsStart())
	}
	var b bytes.Buffer
	hdr := make([]byte, 24)
	le.PutUint16(hdr, btf.Magic)
	hdr[2] = 1
	le.PutUint32(hdr[4:], 24)
	le.PutUint32(hdr[12:], uint32(len(btypes)+len(stypes)))
	le.PutUint32(hdr[16:], uint32(len(btypes)+len(stypes)))
	le.PutUint32(hdr[20:], uint32(len(bstrs)+len(sstrs)))
	b.Write(hdr)
	b.Write(btypes)
	b.Write(stypes)
	b.Write(bstrs)
	b.Write(sstrs)
	return b.Bytes(), nil
}
