package dedup

import (
	"errors"
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Options tune Dedup. The zero value gives libbpf's btf__dedup semantics.
type Options struct {
	// KeepDuplicateVars keeps every VAR and DATASEC, as libbpf does
	// (btf__dedup never merges them). By default a VAR equal to an earlier
	// one (name, linkage, canonical type) is merged into it, then DATASECs
	// equal entry for entry and DECL_TAGs of merged VARs, so that merging
	// two copies of a BTF gives the BTF back.
	KeepDuplicateVars bool

	// NoNameFwdResolution turns off the final FWD pass that maps a FWD
	// still unresolved after the struct phase onto the one STRUCT/UNION of
	// its name (libbpf always does it; pahole output depends on it).
	NoNameFwdResolution bool

	// Base, when not nil, is a base BTF made ready by PrepareBase, for
	// deduplicating many inputs against one base (a kernel's modules
	// against its vmlinux) without redoing the base's share of the work
	// each time. The input must then be split against Base.Spec(), or be
	// a standalone BTF (numbered from 1) that refers to no base type,
	// such as an encoder's output for a module: that is taken as
	// MergeOnto(Base.Spec(), in) would place it, without the copy, and
	// the Mapping's input IDs are the placed ones (in's IDs +
	// Base.Spec().NextID()-1). The result is split against Base.Spec()
	// and is, byte for byte, what Dedup without Base gives for the input
	// split against that base.
	Base *Base

	// Stats, when not nil, gets the time of each phase added to it.
	Stats *Stats

	// UniqueStrings says that the input (a base Spec) has each string
	// once in its table and that every string offset its types hold is
	// the start of a string, as a Merger's result has: the strings
	// phase then only puts them in first-reference order, without
	// looking any up. The result is the same.
	UniqueStrings bool
}

// Mapping maps the IDs of a Dedup input to the IDs of its output. IDs of a
// base Spec map to themselves; an ID of the input's own range maps to its
// canonical type's new ID.
type Mapping struct {
	first btf.TypeID
	ids   []btf.TypeID // indexed by input ID - first
}

// Map returns the output ID of input type id (void and base IDs unchanged).
func (m Mapping) Map(id btf.TypeID) btf.TypeID {
	if id < m.first {
		return id
	}
	i := int(id - m.first)
	if i >= len(m.ids) {
		return 0
	}
	return m.ids[i]
}

// Len is the number of input types the mapping covers (the input's own types).
func (m Mapping) Len() int { return len(m.ids) }

const (
	unprocessed = ^uint32(0)
	inProgress  = ^uint32(0) - 1
	maxTypes    = 0x7fffffff // BTF_MAX_NR_TYPES: larger map values are markers
	identDepth  = 16         // depth limit of the identical-types fallback
)

// ErrTypeLoop is returned for a cycle of types that does not pass through a
// STRUCT, UNION or TYPEDEF (impossible in C; malformed input).
var ErrTypeLoop = errors.New("type cycle through reference types only")

// typeHeader is a type's 12-byte header: name offset, info word and
// size-or-type word.
type typeHeader struct{ name, info, sizeType uint32 }

// deduper holds the whole working state in flat, ID-indexed slices: the
// types of the base (read only) and of the input (rewritten in place, as
// libbpf does), the canonical map and the hypothetical map.
type deduper struct {
	start    uint32 // first ID of the input's own types
	n        uint32 // one past the last ID
	hdr      []typeHeader
	extStart []uint32 // extStart[id]..extStart[id+1]: trailing words of id
	words    []uint32

	canonical       []uint32 // canonical map (libbpf's d->map)
	hypothetical    []uint32 // hypothetical map (libbpf's d->hypot_map)
	hypotheticalIDs []uint32 // the entries of hypothetical that are set
	// needsBaseChange says that the equivalence check under way matched
	// a base FWD with a struct or union: that would need the base
	// changed, so the match does not count (libbpf's hypot_adjust_canon).
	needsBaseChange bool
	tab             table       // the candidate index (table.go)
	identPairs      [][2]uint32 // pairs identical is comparing (equiv.go)
	// seq, when not nil, is the struct phase's candidate index of a
	// Stream (stream.go), used instead of tab.
	seq *seqIndex

	// primsDone, when above start, says that the primitive phase has
	// run over the types below it (MergeDedup runs it as it reads).
	primsDone uint32

	identity []uint32  // when not nil, holds at least 0 .. start-1 (a prepared base's)
	baseStrs *strIndex // when not nil, finds the base's strings (a prepared base's)
}

// ext returns the trailing words of type id (not a copy).
func (d *deduper) ext(id uint32) []uint32 {
	return d.words[d.extStart[id]:d.extStart[id+1]:d.extStart[id+1]]
}

func (d *deduper) kind(id uint32) btf.Kind { return btf.KindOf(d.hdr[id].info) }

// Dedup deduplicates the types of in (its own types; a base, if in is
// split, is read only) with the semantics of libbpf's btf__dedup and
// returns a new Spec (split against the same base when in is split), the
// mapping of in's IDs to the result's, or an error for malformed input.
// in is not modified. The result depends only on in: its types are in
// first-occurrence order of their canonical representatives, its strings
// in first-reference order, exactly as libbpf lays them out.
//
// To deduplicate several Specs together (a compiler's per-unit BTF, the
// members of a BTF archive), Merge them first. With opts.Base the input is
// deduplicated against a prepared base (see Options.Base). Concurrent
// calls are safe, also when they share a base or a prepared base.
func Dedup(in *btf.Spec, opts Options) (*btf.Spec, Mapping, error) {
	if opts.Base != nil {
		return dedupOnto(opts.Base, in, opts)
	}
	clk := startClock(opts.Stats)
	d, err := load(in)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phLoad)
	var strs []byte
	if opts.UniqueStrings && in.Base() == nil {
		strs, err = d.orderStrings(in)
	} else {
		strs, err = d.dedupStrings(in)
	}
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phStrings)
	d.indexBase()
	if err := d.typePhases(opts, clk, d.resolveFwds); err != nil {
		return nil, Mapping{}, err
	}
	d.tab = table{}
	out, m, err := d.compactRemap(in, strs)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phCompact)
	return out, m, nil
}

// tablesFrom gives d empty tables for n types (void's entries zeroed,
// the others to be written) with room for extraTypes more and for words
// trailing words, in mem's memory where it has room (mem may be nil; it
// must not be used afterwards).
func (d *deduper) tablesFrom(mem *deduper, n, extraTypes, words int) {
	if mem == nil {
		mem = &deduper{}
	}
	d.hdr = room(mem.hdr, n, extraTypes)
	d.extStart = room(mem.extStart, n+1, extraTypes)
	d.words = room(mem.words, 0, words)
	d.canonical = room(mem.canonical, n, extraTypes)
	d.hypothetical = room(mem.hypothetical, n, extraTypes)
	d.hdr[0], d.extStart[0], d.extStart[n] = typeHeader{}, 0, 0
	d.canonical[0], d.hypothetical[0] = 0, 0
	d.tab = mem.tab
	d.tab.reset()
	d.identPairs = mem.identPairs[:0]
	d.hypotheticalIDs = mem.hypotheticalIDs[:0]
}

// room returns a slice of length n and capacity for extra more, in s's
// memory when it has room (its contents are left as they are), else new.
func room[T any](s []T, n, extra int) []T {
	if cap(s) < n+extra {
		return make([]T, n, n+extra)
	}
	return s[:n]
}

// typePhases runs the phases that decide the canonical types, in libbpf's
// order: primitive, struct, FWD resolution by name (resolveFwds, unless
// opts.NoNameFwdResolution), reference, and variables (unless
// opts.KeepDuplicateVars), timing each on clk.
func (d *deduper) typePhases(opts Options, clk *clock, resolveFwds func()) error {
	if err := d.primTypes(); err != nil {
		return err
	}
	clk.lap(phPrim)
	if err := d.structTypes(); err != nil {
		return err
	}
	clk.lap(phStruct)
	if !opts.NoNameFwdResolution {
		resolveFwds()
	}
	clk.lap(phFwd)
	if err := d.refTypes(); err != nil {
		return err
	}
	clk.lap(phRef)
	if !opts.KeepDuplicateVars {
		d.varTypes()
	}
	clk.lap(phVar)
	return nil
}

func load(in *btf.Spec) (*deduper, error) { return loadInto(nil, in, 0, 0) }

// loadInto is load into mem's tables where they have room (mem may be
// nil; it must not be used afterwards), with room for extraTypes more
// types and extraWords more trailing words.
func loadInto(mem *deduper, in *btf.Spec, extraTypes, extraWords int) (*deduper, error) {
	start := uint32(in.FirstID())
	n := uint32(in.NextID())
	if n-1 > maxTypes {
		return nil, fmt.Errorf("dedup: %d types is more than BTF allows", n-1)
	}
	nw := in.NumWords()
	if in.Base() != nil {
		nw = 0
		for id := uint32(1); id < n; id++ {
			_, _, _, ext := in.RawType(btf.TypeID(id))
			nw += len(ext)
		}
	}
	d := &deduper{start: start, n: n}
	// Every entry from 1 on is written below.
	d.tablesFrom(mem, int(n), extraTypes, nw+extraWords)
	for id := uint32(1); id < n; id++ {
		name, info, st, ext := in.RawType(btf.TypeID(id))
		k := btf.KindOf(info)
		if k == btf.KindFwd && id >= start {
			// A FWD's size/type word is unused and the kernel demands
			// 0; gcc 12 (-gbtf) leaves garbage there, which would keep
			// equal FWDs apart (libbpf even remaps it as a type ID).
			st = 0
		}
		if k == btf.KindUnknown || k > btf.MaxKind {
			return nil, fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
		}
		d.hdr[id] = typeHeader{name, info, st}
		d.extStart[id] = uint32(len(d.words))
		d.words = append(d.words, ext...)
		if id < start || k == btf.KindVar || k == btf.KindDatasec {
			d.canonical[id] = id // base types and VAR/DATASEC are self-canonical
		} else {
			d.canonical[id] = unprocessed
		}
		d.hypothetical[id] = unprocessed
	}
	d.extStart[n] = uint32(len(d.words))
	// Every referenced ID must exist, or the phases would index out of
	// range.
	if err := d.checkRefs(start); err != nil {
		return nil, err
	}
	return d, nil
}
