package dedup

import (
	"cmp"
	"slices"
)

// seqIndex is the struct phase's candidate index in a Stream. Dedup runs
// the struct phase after the primitive phase has indexed every primitive
// type, in one table (table.go) that reproduces libbpf's hashmap: a key's
// candidates come newest first, and each time the table grows the order
// of a key's entries is reversed (libbpf re-pushes every chain). A Stream
// runs the struct phase unit by unit while later units' primitive types
// are still to come, so it does not know how many entries (P) the table
// would hold before the first struct: the growths, and with them the
// order, depend on it.
//
// seqIndex keeps each key's entries with the order they were added in,
// and works out the order the table would give from the number of
// entries before each insertion, for the P known so far. The order only
// matters when more than one candidate passes: a key with one entry has
// none to get wrong, and for a key with several, each is first asked
// whether it would pass (in the same state, committing nothing). When
// several would, the choice is recorded, and once the last unit is in,
// check replays the order with the final P: the choice stands when that
// order puts it first among those that pass. Otherwise the Stream redoes
// the primitive and struct phases the way Dedup does, from the start.
type seqIndex struct {
	slots []int32  // open addressing over keys: index into keys+1, 0 free
	keys  []uint64 // distinct keys
	head  []int32  // per key: its newest entry, -1 none
	// Entries, in insertion order.
	ids  []uint32
	seqs []uint32 // the entry's insertion number in the struct phase, from 0
	next []int32  // the key's previous entry, -1 none

	prims func() int // the number of primitive entries so far (P)

	decisions []decision
	pool      []uint32 // the decisions' candidate lists
	scratch   []int32
}

// decision is one lookup of a key with several candidates of which more
// than one would pass: the candidates in the order they were tried
// (pool[at:at+3*n]: id, seq, 1 if it would pass), the index of the one
// chosen, the struct-phase insertions before the lookup, and the P the
// order was worked out for.
type decision struct {
	at, n, chosen uint32
	inserted      uint32
	prims         uint32
}

// growthAt lists the table sizes (in entries) at whose insertion
// libbpf's hashmap grows: the first insertion, then whenever the new
// count times 4/3 would exceed the buckets (table.add).
var growthAt = func() []uint64 {
	g := []uint64{1}
	for buckets := uint64(1) << minBits; buckets <= 1<<33; buckets *= 2 {
		// The least n with n*4/3 > buckets.
		n := buckets * 3 / 4
		for n*4/3 <= buckets {
			n++
		}
		g = append(g, n)
	}
	return g
}()

func (x *seqIndex) find(key uint64) int32 {
	if len(x.slots) == 0 {
		return -1
	}
	mask := uint64(len(x.slots) - 1)
	for i := hashBits(key, 62) & mask; ; i = (i + 1) & mask {
		k := x.slots[i]
		if k == 0 {
			return -1
		}
		if x.keys[k-1] == key {
			return k - 1
		}
	}
}

func (x *seqIndex) add(key uint64, id uint32) {
	k := x.find(key)
	if k < 0 {
		if (len(x.keys)+1)*2 > len(x.slots) {
			x.slots = make([]int32, max(2*len(x.slots), 1<<10))
			mask := uint64(len(x.slots) - 1)
			for j, kk := range x.keys {
				for i := hashBits(kk, 62) & mask; ; i = (i + 1) & mask {
					if x.slots[i] == 0 {
						x.slots[i] = int32(j + 1)
						break
					}
				}
			}
		}
		mask := uint64(len(x.slots) - 1)
		for i := hashBits(key, 62) & mask; ; i = (i + 1) & mask {
			if x.slots[i] == 0 {
				x.slots[i] = int32(len(x.keys) + 1)
				break
			}
		}
		k = int32(len(x.keys))
		x.keys = append(x.keys, key)
		x.head = append(x.head, -1)
	}
	x.ids = append(x.ids, id)
	x.seqs = append(x.seqs, uint32(len(x.seqs)))
	x.next = append(x.next, x.head[k])
	x.head[k] = int32(len(x.ids) - 1)
}

// cands calls fn with key's candidates in the order the table would give
// them for the P known now, until fn returns false. With several
// candidates, which of them would pass is asked of probe first: when
// more than one would, the order decides, and the decision is recorded
// for check.
func (x *seqIndex) cands(key uint64, fn func(id uint32) bool, probe func(id uint32) bool) {
	k := x.find(key)
	if k < 0 {
		return
	}
	e := x.head[k]
	if x.next[e] < 0 {
		fn(x.ids[e])
		return
	}
	p := uint64(x.prims())
	order := x.order(e, p, uint64(len(x.seqs)))
	x.scratch = order[:0]
	at := uint32(len(x.pool))
	passing := 0
	for _, i := range order {
		pass := uint32(0)
		if probe(x.ids[i]) {
			pass = 1
			passing++
		}
		x.pool = append(x.pool, x.ids[i], x.seqs[i], pass)
	}
	if passing < 2 {
		// The first that passes is the only one, in any order.
		x.pool = x.pool[:at]
		for _, i := range order {
			if !fn(x.ids[i]) {
				break
			}
		}
		return
	}
	d := decision{at: at, n: uint32(len(order)), chosen: uint32(len(order)), inserted: uint32(len(x.seqs)), prims: uint32(p)}
	for j, i := range order {
		if !fn(x.ids[i]) {
			d.chosen = uint32(j)
			break
		}
	}
	x.decisions = append(x.decisions, d)
}

// order returns the entries of the key whose newest entry is e, in the
// order libbpf's table gives them after p primitive entries and inserted
// struct-phase entries.
func (x *seqIndex) order(e int32, p, inserted uint64) []int32 {
	// The key's entries, oldest first.
	var ents []int32
	for ; e >= 0; e = x.next[e] {
		ents = append(ents, e)
	}
	for i, j := 0, len(ents)-1; i < j; i, j = i+1, j-1 {
		ents[i], ents[j] = ents[j], ents[i]
	}
	return replayOrder(len(ents), func(i int) uint64 { return p + uint64(x.seqs[ents[i]]) + 1 }, p+inserted,
		func(i int) int32 { return ents[i] }, x.scratch[:0])
}

// replayOrder replays a key's chain: n entries, the i-th (oldest first)
// inserted as the table's insertion number at(i), up to insertion
// number upto; each growth reverses the chain, each insertion pushes
// onto its head. It returns val(i) of the entries, head first.
func replayOrder(n int, at func(i int) uint64, upto uint64, val func(i int) int32, buf []int32) []int32 {
	chain := buf // head last, so that a push is an append
	g := 0
	first := at(0)
	for g < len(growthAt) && growthAt[g] <= first {
		g++
	}
	for i := 0; i < n; i++ {
		ins := at(i)
		// Growths between the previous insertion and this one, and at
		// this one (before it is pushed).
		for ; g < len(growthAt) && growthAt[g] <= ins; g++ {
			if i > 0 {
				reverse(chain)
			}
		}
		chain = append(chain, val(i))
	}
	for ; g < len(growthAt) && growthAt[g] <= upto; g++ {
		reverse(chain)
	}
	reverse(chain) // head first
	return chain
}

func reverse(s []int32) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// check replays every recorded decision with the final number of
// primitive entries and reports whether the candidate that order puts
// first among those that pass is the one chosen.
func (x *seqIndex) check(finalPrims int) bool {
	p := uint64(finalPrims)
	for _, d := range x.decisions {
		if uint64(d.prims) == p {
			continue // the order was worked out for this P
		}
		cand := x.pool[d.at : d.at+3*d.n]
		// Replay wants the entries oldest first: by seq.
		bySeq := make([]int32, d.n)
		for j := range bySeq {
			bySeq[j] = int32(j)
		}
		slices.SortFunc(bySeq, func(a, b int32) int { return cmp.Compare(cand[3*a+1], cand[3*b+1]) })
		order := replayOrder(int(d.n), func(i int) uint64 { return p + uint64(cand[3*bySeq[i]+1]) + 1 },
			p+uint64(d.inserted), func(i int) int32 { return bySeq[i] }, nil)
		for _, j := range order {
			if cand[3*j+2] == 1 { // the first that passes
				if uint32(j) != d.chosen {
					return false
				}
				break
			}
		}
	}
	return true
}
