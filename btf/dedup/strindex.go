package dedup

import "hash/maphash"

// strIndex finds strings of a base's string table, as btf.Spec.FindString
// does for a complete base (the first place a string starts, "" at 0), in
// a table made for the lookups a DedupOnto run makes of every string of
// its input: one 8-byte slot (a hash tag and the offset) per probe and
// one comparison with the table's bytes, where a map of strings reads a
// group of control bytes, a string header and the string itself.
type strIndex struct {
	strs  []byte
	slots []uint64 // tag<<32 | offset; emptySlot for none
	seed  maphash.Seed
}

const emptySlot = ^uint64(0)

func newStrIndex(strs []byte) *strIndex {
	n := 0
	for i := 0; i < len(strs); i++ {
		if strs[i] == 0 && i > 0 && strs[i-1] != 0 {
			n++
		}
	}
	size := 1 << 10
	for size < 2*n {
		size *= 2
	}
	x := &strIndex{strs: strs, slots: make([]uint64, size), seed: maphash.MakeSeed()}
	for i := range x.slots {
		x.slots[i] = emptySlot
	}
	for i := 0; i < len(strs); {
		j := i
		for j < len(strs) && strs[j] != 0 {
			j++
		}
		if j > i && j < len(strs) && uint64(i) < 1<<32 {
			s := strs[i:j]
			if sl, found := x.slot(string(s)); !found {
				*sl = x.tag(string(s))<<32 | uint64(i)
			}
		}
		i = j + 1
	}
	return x
}

func (x *strIndex) tag(s string) uint64 { return maphash.String(x.seed, s) >> 32 }

// slot returns s's slot, or the empty one where it would go.
func (x *strIndex) slot(s string) (*uint64, bool) {
	h := maphash.String(x.seed, s)
	tag := h >> 32
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &x.slots[i]
		v := *sl
		if v == emptySlot {
			return sl, false
		}
		if v>>32 != tag {
			continue
		}
		off := v & (1<<32 - 1)
		end := off + uint64(len(s))
		if end < uint64(len(x.strs)) && x.strs[end] == 0 && string(x.strs[off:end]) == s {
			return sl, true
		}
	}
}

// find returns the offset of s in the table.
func (x *strIndex) find(s string) (uint32, bool) {
	if s == "" {
		return 0, true
	}
	sl, ok := x.slot(s)
	if !ok {
		return 0, false
	}
	return uint32(*sl), true
}
