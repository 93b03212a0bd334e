package dedup

import "slices"

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

	// base, when not nil, makes the table an overlay (see overlay): its
	// entries come before this table's own, which are indexed on their
	// own (buckets, bits) in an order-keeping way.
	base *table
	// frozen, when not nil, holds the same candidates laid out for reading
	// (see freeze); the table must not change afterwards.
	frozen *frozen
}

// An overlay is a table that starts as a copy of a prepared one (a
// prepared base's index, shared read only by concurrent runs) without
// copying it. While the combined table would not have grown, libbpf's
// chain for a key is the entries added since, newest first, then the
// base's chain: the own entries of the key, newest first, then the base's.
// The own entries' index keeps exactly that order whatever its size (it
// is rebuilt oldest first when it grows). The add that would make the
// combined table grow first materializes it: the base's entries copied,
// the own ones pushed in the order they came, as the combined table holds
// them; from there on it is a plain table.

// overlay returns an empty overlay of base, in mem's memory.
func overlay(base, mem *table) table {
	return table{base: base, keys: mem.keys[:0], vals: mem.vals[:0], next: mem.next[:0], buckets: mem.buckets[:0]}
}

// frozen is a table's candidates by key, for reading: an open-addressing
// index of the distinct keys, each with its IDs in chain order (the order
// cands gives them in), the ID itself when there is one. A walk reads one
// slot, where the linked chains read a bucket head, then the key, the link
// and the value of each entry from three arrays, each a cache miss in a
// table the size of a vmlinux's (~95,000 entries, 2 MiB).
type frozen struct {
	slots []frozenSlot
	bits  uint
	vals  []uint32 // the IDs of keys with several, each key's together
}

type frozenSlot struct {
	key uint64
	n   uint32 // number of IDs; 0 for a free slot
	v   uint32 // the ID when n is 1, else the first in vals
}

// freeze indexes t's candidates by key (t.frozen); t must not change after.
func (t *table) freeze() {
	bits := uint(minBits)
	for 1<<bits*3 < 4*len(t.keys) {
		bits++
	}
	idx := &frozen{slots: make([]frozenSlot, 1<<bits), bits: bits}
	mask := uint64(1)<<bits - 1
	// A key's entries are all in one chain: group each chain's by key,
	// in chain order.
	var chain []int32
	var ids []uint32
	for _, head := range t.buckets {
		chain = chain[:0]
		for e := head; e >= 0; e = t.next[e] {
			chain = append(chain, e)
		}
		var byKey map[uint64][]uint32 // for long chains (many equal types)
		if len(chain) > 32 {
			byKey = map[uint64][]uint32{}
			for _, e := range chain {
				byKey[t.keys[e]] = append(byKey[t.keys[e]], t.vals[e])
			}
		}
		for i, e := range chain {
			k := t.keys[e]
			if slices.ContainsFunc(chain[max(0, i-32):i], func(p int32) bool { return t.keys[p] == k }) ||
				(byKey != nil && byKey[k] == nil) {
				continue // grouped with an earlier entry of k
			}
			ids = ids[:0]
			if byKey != nil {
				ids = append(ids, byKey[k]...)
				byKey[k] = nil
			} else {
				for _, f := range chain[i:] {
					if t.keys[f] == k {
						ids = append(ids, t.vals[f])
					}
				}
			}
			sl := frozenSlot{key: k, n: uint32(len(ids)), v: ids[0]}
			if len(ids) > 1 {
				sl.v = uint32(len(idx.vals))
				idx.vals = append(idx.vals, ids...)
			}
			for j := hashBits(k, bits); ; j = (j + 1) & mask {
				if idx.slots[j].n == 0 {
					idx.slots[j] = sl
					break
				}
			}
		}
	}
	t.frozen = idx
}

// cands is table.cands for a frozen table.
func (f *frozen) cands(key uint64, fn func(id uint32) bool) {
	mask := uint64(len(f.slots) - 1)
	for i := hashBits(key, f.bits); ; i = (i + 1) & mask {
		sl := &f.slots[i]
		if sl.n == 0 {
			return
		}
		if sl.key != key {
			continue
		}
		if sl.n == 1 {
			fn(sl.v)
			return
		}
		for _, id := range f.vals[sl.v : sl.v+sl.n] {
			if !fn(id) {
				return
			}
		}
		return
	}
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
	if t.base != nil {
		if (len(t.base.keys)+len(t.keys)+1)*4/3 <= len(t.base.buckets) {
			t.addOwn(key, id)
			return
		}
		t.materialize()
	}
	t.frozen = nil
	if len(t.buckets) == 0 || (len(t.keys)+1)*4/3 > len(t.buckets) {
		t.grow()
	}
	t.push(key, id)
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

// cands walks the candidates for key in libbpf's order, calling fn for each
// until it returns false.
func (t *table) cands(key uint64, fn func(id uint32) bool) {
	if t.base != nil {
		if !t.walk(key, fn) {
			return
		}
		t = t.base
	}
	if t.frozen != nil {
		t.frozen.cands(key, fn)
		return
	}
	t.walk(key, fn)
}

// walk calls fn for the entries of key in its chain of t's own buckets
// (skipping the chain's other keys) until fn returns false; it reports
// whether fn never did.
func (t *table) walk(key uint64, fn func(id uint32) bool) bool {
	if len(t.buckets) == 0 {
		return true
	}
	for e := t.buckets[hashBits(key, t.bits)]; e >= 0; e = t.next[e] {
		if t.keys[e] == key && !fn(t.vals[e]) {
			return false
		}
	}
	return true
}

// addOwn adds an entry to an overlay's own index. Chains of the own index
// hold the entries of a key newest first: a bigger index is filled oldest
// entry first.
func (t *table) addOwn(key uint64, id uint32) {
	if (len(t.keys)+1)*2 > len(t.buckets) {
		nb := max(t.bits+1, 6)
		if cap(t.buckets) >= 1<<nb {
			t.buckets = t.buckets[:1<<nb]
		} else {
			t.buckets = make([]int32, 1<<nb)
		}
		t.bits = nb
		for i := range t.buckets {
			t.buckets[i] = -1
		}
		for e := range t.keys {
			h := hashBits(t.keys[e], nb)
			t.next[e] = t.buckets[h]
			t.buckets[h] = int32(e)
		}
	}
	t.push(key, id)
}

// materialize turns an overlay into the plain table it stands for.
func (t *table) materialize() {
	b := t.base
	own := *t
	*t = table{
		buckets: append([]int32(nil), b.buckets...),
		bits:    b.bits,
		keys:    append(make([]uint64, 0, len(b.keys)+len(own.keys)+1), b.keys...),
		vals:    append(make([]uint32, 0, len(b.keys)+len(own.keys)+1), b.vals...),
		next:    append(make([]int32, 0, len(b.keys)+len(own.keys)+1), b.next...),
	}
	for e := range own.keys {
		t.push(own.keys[e], own.vals[e])
	}
}

// reserve makes room for n entries in all without reallocating: the
// entries' arrays otherwise double as they fill, each time copied to
// freshly faulted memory. Pages of the room never used are never
// touched. t must be empty and not an overlay.
func (t *table) reserve(n int) {
	if cap(t.keys) < n {
		t.keys = make([]uint64, 0, n)
		t.vals = make([]uint32, 0, n)
		t.next = make([]int32, 0, n)
	}
}

// push adds an entry at the head of its chain, without growing: the
// caller has made room.
func (t *table) push(key uint64, id uint32) {
	h := hashBits(key, t.bits)
	t.keys = append(t.keys, key)
	t.vals = append(t.vals, id)
	t.next = append(t.next, t.buckets[h])
	t.buckets[h] = int32(len(t.keys) - 1)
}

// reset empties the table, keeping its memory; an overlay becomes a plain
// table.
func (t *table) reset() {
	t.base = nil
	t.frozen = nil
	t.buckets = t.buckets[:0]
	t.bits = 0
	t.keys = t.keys[:0]
	t.vals = t.vals[:0]
	t.next = t.next[:0]
}
