package dedup

import (
	"hash/maphash"
	"math/bits"

	"github.com/btfkit/btfkit/btf"
)

// strIndex finds strings of a base's string table, as btf.Spec.FindString
// does for a complete base (the first place a string starts, "" at 0), in
// a table made for the lookups a run against a prepared Base makes of
// every string of its input, most of them in a table of 100,000 strings
// shared by all runs: one 4-byte slot per probe (a hash tag and the offset; a vmlinux's
// fits in 512 KiB, a core's second-level cache) and one comparison with
// the table's bytes, where a map of strings reads a group of control
// bytes, a string header and the string itself, in three cache lines of a
// table ten times the size.
type strIndex struct {
	strs    []byte
	slots   []uint32 // tag<<offBits | offset+1; 0 for none
	offBits uint
	seed    maphash.Seed
}

// newStrIndex indexes strs, or returns nil when the table is too large
// for the slots to hold a useful tag (more than 64 MiB).
func newStrIndex(strs []byte) *strIndex {
	offBits := uint(bits.Len(uint(len(strs))))
	if offBits > 26 {
		return nil
	}
	n := 0
	for i := 0; i < len(strs); i++ {
		if strs[i] == 0 && i > 0 && strs[i-1] != 0 {
			n++
		}
	}
	size := 1 << 10
	for size*3 < 4*n {
		size *= 2
	}
	x := &strIndex{strs: strs, slots: make([]uint32, size), offBits: offBits, seed: maphash.MakeSeed()}
	for i := 0; i < len(strs); {
		s := btf.CString(strs[i:])
		if s != "" && i+len(s) < len(strs) { // NUL-terminated
			if sl, tag, found := x.slot(s); !found {
				*sl = tag<<offBits | uint32(i+1)
			}
		}
		i += len(s) + 1
	}
	return x
}

// slot returns s's slot, or the empty one where it would go, and s's tag.
func (x *strIndex) slot(s string) (sl *uint32, tag uint32, found bool) {
	h := maphash.String(x.seed, s)
	tag = uint32(h >> (32 + x.offBits))
	offMask := uint32(1)<<x.offBits - 1
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &x.slots[i]
		v := *sl
		if v == 0 {
			return sl, tag, false
		}
		if v>>x.offBits != tag {
			continue
		}
		off := uint64(v&offMask) - 1
		end := off + uint64(len(s))
		if end < uint64(len(x.strs)) && x.strs[end] == 0 && string(x.strs[off:end]) == s {
			return sl, tag, true
		}
	}
}

// find returns the offset of s in the table.
func (x *strIndex) find(s string) (uint32, bool) {
	if s == "" {
		return 0, true
	}
	sl, _, ok := x.slot(s)
	if !ok {
		return 0, false
	}
	return *sl&(1<<x.offBits-1) - 1, true
}
