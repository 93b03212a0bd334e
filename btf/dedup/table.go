package dedup

// table is the candidate index: a multimap from a type's signature hash to
// the IDs of canonical types with that hash.
//
// It reproduces libbpf's hashmap exactly (buckets of singly linked chains,
// new entries pushed at the head of their chain, capacity doubled once the
// table is more than 3/4 full, entries re-pushed bucket by bucket when it
// grows), because the order in which candidates are tried decides which of
// several equivalent canonical types a new type maps onto, and with it the
// output's IDs. Entries live in flat slices indexed by int32; nothing is
// allocated per entry.
type table struct {
	buckets []int32 // head entry of each chain, -1 for none
	bits    uint
	keys    []uint64
	vals    []uint32
	next    []int32
}

const minBits = 2

func hashBits(h uint64, bits uint) uint64 {
	if bits == 0 {
		return 0
	}
	return (h * 11400714819323198485) >> (64 - bits)
}

// add appends a (key, id) entry; duplicates are allowed.
func (t *table) add(key uint64, id uint32) {
	if len(t.buckets) == 0 || (len(t.keys)+1)*4/3 > len(t.buckets) {
		t.grow()
	}
	b := hashBits(key, t.bits)
	e := int32(len(t.keys))
	t.keys = append(t.keys, key)
	t.vals = append(t.vals, id)
	t.next = append(t.next, t.buckets[b])
	t.buckets[b] = e
}

func (t *table) grow() {
	nb := t.bits + 1
	if nb < minBits {
		nb = minBits
	}
	nbk := make([]int32, 1<<nb)
	for i := range nbk {
		nbk[i] = -1
	}
	for _, head := range t.buckets {
		for e := head; e >= 0; {
			nx := t.next[e]
			h := hashBits(t.keys[e], nb)
			t.next[e] = nbk[h]
			nbk[h] = e
			e = nx
		}
	}
	t.buckets, t.bits = nbk, nb
}

// first returns the first entry of key's chain to walk with next, or -1.
// Entries of other keys in the same chain must be skipped by the caller
// (see cands).
func (t *table) first(key uint64) int32 {
	if len(t.buckets) == 0 {
		return -1
	}
	return t.buckets[hashBits(key, t.bits)]
}

// cands walks the candidates for key in libbpf's order, calling fn for each
// until it returns false.
func (t *table) cands(key uint64, fn func(id uint32) bool) {
	for e := t.first(key); e >= 0; e = t.next[e] {
		if t.keys[e] == key && !fn(t.vals[e]) {
			return
		}
	}
}

// reset empties the table, keeping its memory.
func (t *table) reset() {
	t.buckets = t.buckets[:0]
	t.bits = 0
	t.keys = t.keys[:0]
	t.vals = t.vals[:0]
	t.next = t.next[:0]
}
