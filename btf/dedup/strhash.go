package dedup

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"unsafe"
)

// The interner's string hash, written by hand because it is hot: an
// archive's members hold about 1.4 million names to intern, each read out
// of a string table where its length is not known. hashCString finds the
// NUL and hashes in the same pass over 8-byte words (a word with a zero
// byte is told by the usual borrow trick), where bytes.IndexByte followed
// by hash/maphash read each name twice and cost a call each. strHash
// gives the same value for a string whose length is known. The seed is
// random per process, so that crafted names cannot be made to collide.

const (
	hashMul  = 0x9e3779b97f4a7c15
	lowBytes = 0x0101010101010101
	highBits = 0x8080808080808080
)

var hashSeed = rand.Uint64()

func hashWord(h, w uint64) uint64 {
	h = (h ^ w) * hashMul
	return h ^ h>>32
}

// hashEnd mixes in the length and spreads the bits (murmur3's finalizer).
func hashEnd(h uint64, n int) uint32 {
	h ^= uint64(n)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return uint32(h)
}

// hashCString returns the length of the NUL-terminated string at the
// start of b (all of b when it has no NUL) and its hash.
func hashCString(b []byte) (int, uint32) {
	h := hashSeed
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if z := (w - lowBytes) &^ w & highBits; z != 0 {
			// The lowest flagged byte is the first NUL (a borrow only
			// flags bytes above it).
			k := bits.TrailingZeros64(z) >> 3
			if k > 0 {
				h = hashWord(h, w&(1<<(8*k)-1))
			}
			return i + k, hashEnd(h, i+k)
		}
		h = hashWord(h, w)
	}
	var w uint64
	k := 0
	for ; i+k < len(b) && b[i+k] != 0; k++ {
		w |= uint64(b[i+k]) << (8 * k)
	}
	if k > 0 {
		h = hashWord(h, w)
	}
	return i + k, hashEnd(h, i+k)
}

// strHash is hashCString's hash of s (which holds no NUL).
func strHash(s string) uint32 {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	h := hashSeed
	i := 0
	for ; i+8 <= len(b); i += 8 {
		h = hashWord(h, binary.LittleEndian.Uint64(b[i:]))
	}
	if i < len(b) {
		var w uint64
		for k := 0; i+k < len(b); k++ {
			w |= uint64(b[i+k]) << (8 * k)
		}
		h = hashWord(h, w)
	}
	return hashEnd(h, len(b))
}
