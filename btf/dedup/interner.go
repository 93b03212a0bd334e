package dedup

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// interner builds a string table with each string once, in the order
// first added, and finds a string's offset in it: one 8-byte slot per
// probe (32 bits of the string's hash and its offset + 1) and one
// comparison with the table's bytes, cheaper than a map of strings for
// the millions of look-ups of an archive's members.
type interner struct {
	strs  []byte
	slots []uint64 // hash<<32 | offset+1; 0 for none
	n     int
	zero  bool // "" is at offset 0
}

// newInterner returns an interner sized for about n strings. With zero
// its table starts with "" at offset 0 (a base's table), else empty (a
// split BTF's own table, where "" is the base's; one added is appended
// like any string).
func newInterner(n int, zero bool) *interner {
	x := &interner{slots: make([]uint64, slotsFor(n)), zero: zero}
	if zero {
		x.strs = []byte{0}
	}
	return x
}

// slotsFor is the number of slots for about n strings: a power of two,
// at least twice n.
func slotsFor(n int) int {
	size := 1 << 10
	for size < 2*n {
		size *= 2
	}
	return size
}

// recycle returns an empty interner as newInterner(n, zero) does, with
// x's slots (cleared) when there are enough of them; x may be nil. x's
// table is not reused: Specs may hold it. x must not be used afterwards.
func (x *interner) recycle(n int, zero bool) *interner {
	if x == nil || len(x.slots) < slotsFor(n) {
		return newInterner(n, zero)
	}
	y := &interner{slots: x.slots, zero: zero}
	clear(y.slots)
	if zero {
		y.strs = []byte{0}
	}
	return y
}

// add returns the offset of s in the table, appending it if it is new.
func (x *interner) add(s string) uint32 {
	if len(s) == 0 && x.zero {
		return 0
	}
	return x.addHashed(s, strHash(s))
}

// addCString is add of the NUL-terminated string at the start of b (a
// string table's bytes from a string's offset on); it also returns the
// string's length.
func (x *interner) addCString(b []byte) (uint32, int) {
	n, h := hashCString(b)
	if n == 0 {
		if x.zero {
			return 0, 0
		}
		return x.addHashed("", h), 0
	}
	return x.addHashed(unsafe.String(&b[0], n), h), n
}

// at returns the length of the NUL-terminated string at the start of b
// when the table holds it at offset off, else -1. A non-empty string's
// only offset is where the table holds it.
func (x *interner) at(off uint32, b []byte) int {
	if int(off) >= len(x.strs) {
		return -1
	}
	t := x.strs[off:]
	i := 0
	// Word by word while both have 8 bytes left (hashCString's trick
	// finds the NUL), then byte by byte.
	for ; i+8 <= len(t) && i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		v := binary.LittleEndian.Uint64(t[i:])
		if z := (w - lowBytes) &^ w & highBits; z != 0 {
			k := bits.TrailingZeros64(z) >> 3 // the NUL's byte
			mask := uint64(1)<<(8*k+8) - 1    // 1<<64 is 0 in Go: all ones for k 7
			if (w^v)&mask != 0 || i+k == 0 {
				return -1
			}
			return i + k
		}
		if w != v {
			return -1
		}
	}
	for ; i < len(t) && i < len(b); i++ {
		if t[i] != b[i] {
			return -1
		}
		if b[i] == 0 {
			if i == 0 {
				return -1 // "": add says where
			}
			return i
		}
	}
	return -1
}

// addHashed is add of s whose hash (strHash) is h.
func (x *interner) addHashed(s string, h uint32) uint32 {
	mask := uint32(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			off := uint32(len(x.strs))
			x.strs = append(x.strs, s...)
			x.strs = append(x.strs, 0)
			x.slots[i] = uint64(h)<<32 | uint64(off+1)
			if x.n++; 2*x.n > len(x.slots) {
				x.grow()
			}
			return off
		}
		if uint32(v>>32) != h {
			continue
		}
		off := uint32(v) - 1
		end := int(off) + len(s)
		if end < len(x.strs) && x.strs[end] == 0 && string(x.strs[off:end]) == s {
			return off
		}
	}
}

// grow doubles the slots.
func (x *interner) grow() {
	slots := make([]uint64, 2*len(x.slots))
	mask := uint32(len(slots) - 1)
	for _, v := range x.slots {
		if v == 0 {
			continue
		}
		i := uint32(v>>32) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = v
	}
	x.slots = slots
}
