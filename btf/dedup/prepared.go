package dedup

// Deduplicating many split BTFs against one base (a kernel's modules against
// its vmlinux) redoes the same work on the base each time: Dedup copies the
// base's types into its tables, hashes every one of them into the candidate
// index and collects the base's struct names for FWD resolution, ~10 ms of
// the ~15 ms a typical module takes. A Base does that once; Dedup with
// Options.Base then starts each run from the prepared tables, so its result is Dedup's, byte
// for byte (the equivalence test checks it on real modules): the base's
// types as copies (kept between runs in reused memory), the candidate
// index as an overlay of the base's (table.go), read through a frozen
// layout, and the base's strings through an index of their own
// (strindex.go); the last two are read only, shared by concurrent runs.

import (
	"fmt"
	"sync"

	"github.com/btfkit/btfkit/btf"
)

// Base is a base BTF prepared for any number of Dedup runs against it
// (Options.Base). It is read only once made: concurrent runs may share it.
type Base struct {
	spec     *btf.Spec
	hdr      []typeHeader // IDs 0 .. NextID()-1
	extStart []uint32     // NextID()+1 entries
	words    []uint32
	tab      table // the candidate index after indexBase: every base type, in ID order
	// structNames maps the name of each base STRUCT/UNION to its ID, or 0
	// when several share the name (resolveFwds' rule).
	structNames map[uint32]uint32
	// identity holds 0 .. NextID()-1 and allUnprocessed NextID() times
	// the unprocessed marker: the base's share of a run's canonical and
	// hypothetical maps, copied in one move each.
	identity, allUnprocessed []uint32
	// strs finds the base's strings (dedupStrings' lookups).
	strs *strIndex
	// scratch holds *scratch: the big tables of finished runs, reused so
	// that a run copies the base's share into memory it already has
	// instead of allocating and clearing megabytes per module.
	scratch sync.Pool
}

// scratch is a deduper's memory, kept between runs against a Base.
type scratch struct {
	hdr                                      []typeHeader
	extStart, words                          []uint32
	holdsBase                                bool // hdr, extStart, words start with the base's
	canonical, hypothetical, hypotheticalIDs []uint32
	tab                                      table
}

// resize returns s with length n, reusing its memory when it is big enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, n+n/8)
}

// PrepareBase prepares base (a complete BTF, not split) for Dedup runs
// against it (Options.Base). base must not be changed afterwards.
func PrepareBase(base *btf.Spec) (*Base, error) {
	if base.Base() != nil {
		return nil, fmt.Errorf("dedup: a prepared base must be a complete BTF, not split")
	}
	// The base part of load's tables for an input split against base
	// (base types are taken as they are), then indexBase's index of them.
	n := uint32(base.NextID())
	if n-1 > maxTypes {
		return nil, fmt.Errorf("dedup: %d types is more than BTF allows", n-1)
	}
	d := &deduper{start: n, n: n, hdr: make([]typeHeader, n), extStart: make([]uint32, n+1)}
	nw := 0
	for id := uint32(1); id < n; id++ {
		_, _, _, ext := base.RawType(btf.TypeID(id))
		nw += len(ext)
	}
	d.words = make([]uint32, 0, nw)
	for id := uint32(1); id < n; id++ {
		name, info, st, ext := base.RawType(btf.TypeID(id))
		if k := btf.KindOf(info); k == btf.KindUnknown || k > btf.MaxKind {
			return nil, fmt.Errorf("dedup: base type [%d]: unknown kind %d", id, k)
		}
		d.hdr[id] = typeHeader{name, info, st}
		d.extStart[id] = uint32(len(d.words))
		d.words = append(d.words, ext...)
	}
	d.extStart[n] = uint32(len(d.words))
	d.indexBase()
	d.tab.freeze()
	b := &Base{spec: base, hdr: d.hdr, extStart: d.extStart, words: d.words, tab: d.tab,
		structNames: make(map[uint32]uint32), identity: make([]uint32, n), allUnprocessed: make([]uint32, n),
		strs: newStrIndex(base.RawStrings())}
	for id := range b.identity {
		b.identity[id] = uint32(id)
		b.allUnprocessed[id] = unprocessed
	}
	for id := uint32(1); id < d.n; id++ {
		if k := d.kind(id); k != btf.KindStruct && k != btf.KindUnion {
			continue
		}
		name := d.hdr[id].name
		if _, dup := b.structNames[name]; dup {
			b.structNames[name] = 0
		} else {
			b.structNames[name] = id
		}
	}
	return b, nil
}

// Spec returns the base BTF.
func (b *Base) Spec() *btf.Spec { return b.spec }

// dedupOnto is Dedup with Options.Base: for in split against b.Spec() (or
// standalone, placed after it), the same result and Mapping as Dedup of
// in split against the base, without redoing the base's share of the work.
func dedupOnto(b *Base, in *btf.Spec, opts Options) (*btf.Spec, Mapping, error) {
	// strSpec has in's own string table, split against the base: in
	// itself, or for a standalone in a shell without types.
	strSpec := in
	var idShift, strShift uint32
	switch in.Base() {
	case b.spec:
	case nil:
		strSpec = btf.NewSplitSpec(b.spec)
		strSpec.SetRawStrings(in.RawStrings())
		strSpec.SetHeaderLen(in.HeaderLen())
		idShift = uint32(b.spec.NextID()) - uint32(in.FirstID())
		strShift = strSpec.StringsStart()
	default:
		return nil, Mapping{}, fmt.Errorf("dedup: the input is split against another base than the prepared one (Options.Base)")
	}
	clk := startClock(opts.Stats)
	sc, _ := b.scratch.Get().(*scratch)
	if sc == nil {
		sc = new(scratch)
	}
	d, err := loadOnto(b, in, idShift, strShift, sc)
	if err != nil {
		return nil, Mapping{}, err
	}
	defer func() {
		// Everything the result needs was copied out of d's tables.
		*sc = scratch{hdr: d.hdr, extStart: d.extStart, words: d.words, holdsBase: true,
			canonical: d.canonical, hypothetical: d.hypothetical, hypotheticalIDs: d.hypotheticalIDs[:0], tab: sc.tab}
		b.scratch.Put(sc)
	}()
	clk.lap(phLoad)
	strs, err := d.dedupStrings(strSpec)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phStrings)
	// What indexBase would index: the base's entries (an overlay of
	// them, not a copy); the own types go in as Dedup's phases add them.
	d.tab = overlay(&b.tab, &sc.tab)
	// Base types are always their own canonical types: their struct
	// names were collected when the base was prepared.
	if err := d.typePhases(opts, clk, func() { d.resolveFwdsWith(b.structNames, d.start) }); err != nil {
		return nil, Mapping{}, err
	}
	sc.tab = d.tab
	d.tab = table{}
	out, m, err := d.compactRemap(strSpec, strs)
	clk.lap(phCompact)
	return out, m, err
}

// loadOnto is load for an input split against b: the base part of the
// tables is copied from b.
func loadOnto(b *Base, in *btf.Spec, idShift, strShift uint32, sc *scratch) (*deduper, error) {
	first := uint32(in.FirstID())
	start := first + idShift
	n := uint32(in.NextID()) + idShift
	if uint64(in.NumTypes())+uint64(start)-1 > maxTypes {
		return nil, fmt.Errorf("dedup: %d types is more than BTF allows", n-1)
	}
	d := &deduper{start: start, n: n, hypotheticalIDs: sc.hypotheticalIDs}
	// The base's share of hdr, extStart and words is never written by a run
	// (only the input's own types are rewritten), so memory reused from an
	// earlier run against b already holds it; new memory gets a copy.
	nw := len(b.words) + in.NumWords()
	fresh := !sc.holdsBase || cap(sc.hdr) < int(n) || cap(sc.extStart) < int(n)+1 || cap(sc.words) < nw
	d.hdr = resize(sc.hdr, int(n))
	d.extStart = resize(sc.extStart, int(n)+1)
	d.words = resize(sc.words, nw)[:len(b.words)]
	if fresh {
		copy(d.hdr, b.hdr)
		copy(d.extStart, b.extStart[:start])
		copy(d.words, b.words)
	}
	inNext, inStrs := uint32(in.NextID()), uint32(in.StringsLen())
	standalone := idShift != 0 || strShift != 0
	// A standalone input is placed after the base: its references
	// shifted, out-of-range values kept out of range (refs to n, found
	// bad below; strings past the table, found by dedupStrings).
	mapType := func(p *uint32) {
		if v := *p; v >= inNext {
			*p = n
		} else if v != 0 {
			*p = v + idShift
		}
	}
	mapStr := func(p *uint32) {
		if v := *p; v >= inStrs {
			*p = strShift + inStrs
		} else if v != 0 {
			*p = v + strShift
		}
	}
	var badID, bad uint32 // the first type referring past the last one
	for id := start; id < n; id++ {
		name, info, st, ext := in.RawType(btf.TypeID(id - idShift))
		if k := btf.KindOf(info); k == btf.KindUnknown || k > btf.MaxKind {
			return nil, fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
		} else if k == btf.KindFwd {
			st = 0 // as load does
		}
		w := uint32(len(d.words))
		d.extStart[id] = w
		d.words = append(d.words, ext...)
		d.hdr[id] = typeHeader{name, info, st}
		h, e := &d.hdr[id], d.words[w:]
		if standalone {
			btf.ForEachStringRef(info, &h.name, e, mapStr)
		}
		btf.ForEachTypeRef(info, &h.sizeType, e, func(p *uint32) {
			if standalone {
				mapType(p)
			}
			if *p >= n && badID == 0 {
				badID, bad = id, *p
			}
		})
	}
	d.extStart[n] = uint32(len(d.words))
	if badID != 0 {
		return nil, fmt.Errorf("dedup: type [%d] %s refers to type %d, past the last type %d", badID, d.kind(badID), bad, n-1)
	}
	d.canonical = resize(sc.canonical, int(n))
	d.hypothetical = resize(sc.hypothetical, int(n))
	d.identity = b.identity
	d.baseStrs = b.strs
	copy(d.canonical, b.identity[:start])
	copy(d.hypothetical, b.allUnprocessed[:start])
	d.hypothetical[0] = 0
	for id := start; id < n; id++ {
		if k := d.kind(id); k == btf.KindVar || k == btf.KindDatasec {
			d.canonical[id] = id
		} else {
			d.canonical[id] = unprocessed
		}
		d.hypothetical[id] = unprocessed
	}
	return d, nil
}
