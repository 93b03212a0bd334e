package dwarf

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestULEB128 decodes what encoding/binary's Uvarint encoder writes (the
// same base-128 little-endian format), followed by junk it must not read,
// and the two malformed cases: an unterminated number and one of more
// than 64 bits.
func TestULEB128(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := []uint64{0, 1, 127, 128, 255, 1 << 32, 1<<63 - 1, 1<<64 - 1}
	for range 1000 {
		vals = append(vals, r.Uint64()>>r.IntN(64))
	}
	for _, v := range vals {
		b := binary.AppendUvarint(nil, v)
		n := len(b)
		b = append(b, 0x81, 0x01)
		if got, k := ULEB128(b); got != v || k != n {
			t.Errorf("ULEB128(% x) = %d, %d; want %d, %d", b, got, k, v, n)
		}
	}
	if got, k := ULEB128([]byte{0x81, 0x82}); got != 1|2<<7 || k != 2 {
		t.Errorf("unterminated: %d, %d", got, k)
	}
	long := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	if got, k := ULEB128(long); got != 1<<64-1 || k != len(long) {
		t.Errorf("more than 64 bits: %#x, %d", got, k)
	}
}
