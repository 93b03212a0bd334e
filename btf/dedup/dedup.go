package dedup

import (
	"errors"
	"fmt"
	"slices"

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
	tab             table // the candidate index (table.go)

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
	d, err := load(in)
	if err != nil {
		return nil, Mapping{}, err
	}
	strs, err := d.dedupStrings(in)
	if err != nil {
		return nil, Mapping{}, err
	}
	d.indexBase()
	if err := d.primTypes(); err != nil {
		return nil, Mapping{}, err
	}
	if err := d.structTypes(); err != nil {
		return nil, Mapping{}, err
	}
	if !opts.NoNameFwdResolution {
		d.resolveFwds()
	}
	if err := d.refTypes(); err != nil {
		return nil, Mapping{}, err
	}
	if !opts.KeepDuplicateVars {
		d.varTypes()
	}
	d.tab = table{}
	out, m, err := d.compactRemap(in, strs)
	if err != nil {
		return nil, Mapping{}, err
	}
	return out, m, nil
}

func load(in *btf.Spec) (*deduper, error) {
	start := uint32(in.FirstID())
	n := uint32(in.NextID())
	if n-1 > maxTypes {
		return nil, fmt.Errorf("dedup: %d types is more than BTF allows", n-1)
	}
	d := &deduper{start: start, n: n}
	d.hdr = make([]typeHeader, n)
	d.extStart = make([]uint32, n+1)
	nw := 0
	for id := uint32(1); id < n; id++ {
		_, _, _, ext := in.RawType(btf.TypeID(id))
		nw += len(ext)
	}
	d.words = make([]uint32, 0, nw)
	for id := uint32(1); id < n; id++ {
		name, info, st, ext := in.RawType(btf.TypeID(id))
		if btf.KindOf(info) == btf.KindFwd && id >= start {
			// A FWD's size/type word is unused and the kernel demands
			// 0; gcc 12 (-gbtf) leaves garbage there, which would keep
			// equal FWDs apart (libbpf even remaps it as a type ID).
			st = 0
		}
		d.hdr[id] = typeHeader{name, info, st}
		d.extStart[id] = uint32(len(d.words))
		d.words = append(d.words, ext...)
		if k := btf.KindOf(info); k == btf.KindUnknown || k > btf.MaxKind {
			return nil, fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
		}
	}
	d.extStart[n] = uint32(len(d.words))
	// Every referenced ID must exist, or the phases below would index
	// out of range.
	for id := start; id < n; id++ {
		var bad uint32
		h := &d.hdr[id]
		btf.ForEachTypeRef(h.info, &h.sizeType, d.ext(id), func(p *uint32) {
			if *p >= n && bad == 0 {
				bad = *p
			}
		})
		if bad != 0 {
			return nil, fmt.Errorf("dedup: type [%d] %s refers to type %d, past the last type %d", id, d.kind(id), bad, n-1)
		}
	}
	d.canonical = make([]uint32, n)
	d.hypothetical = make([]uint32, n)
	for id := uint32(1); id < n; id++ {
		k := d.kind(id)
		if id < start || k == btf.KindVar || k == btf.KindDatasec {
			d.canonical[id] = id // base types and VAR/DATASEC are self-canonical
		} else {
			d.canonical[id] = unprocessed
		}
		d.hypothetical[id] = unprocessed
	}
	return d, nil
}

// dedupStrings rebuilds the input's own string table with each string
// once, in first-reference order (type by type, name before member
// names), dropping strings no type references; strings the base has map to
// the base's offsets. It rewrites the own types' string offsets.
func (d *deduper) dedupStrings(in *btf.Spec) ([]byte, error) {
	startStr := in.StringsStart()
	old := in.RawStrings()
	base := in.Base()
	cache := make([]uint32, len(old)) // new offset + 1, 0 = not seen yet
	idx := make(map[string]uint32)
	var out []byte
	if base == nil {
		out = append(out, 0)
		idx[""] = 0
	}
	var bad error
	remap := func(p *uint32) {
		off := *p
		if off == 0 || off < startStr || bad != nil {
			return
		}
		rel := off - startStr
		if int(rel) >= len(old) {
			bad = fmt.Errorf("string offset %d past the end of the string table (%d bytes)", off, uint64(startStr)+uint64(len(old)))
			return
		}
		if c := cache[rel]; c != 0 {
			*p = c - 1
			return
		}
		s := btf.CString(old[rel:])
		var no uint32
		found := false
		if d.baseStrs != nil {
			no, found = d.baseStrs.find(s)
		} else if base != nil {
			no, found = base.FindString(s)
		}
		if !found {
			if o, ok := idx[s]; ok {
				no = o
			} else {
				no = startStr + uint32(len(out))
				out = append(out, s...)
				out = append(out, 0)
				idx[s] = no
			}
		}
		cache[rel] = no + 1
		*p = no
	}
	for id := d.start; id < d.n; id++ {
		h := &d.hdr[id]
		btf.ForEachStringRef(h.info, &h.name, d.ext(id), remap)
		if bad != nil {
			return nil, fmt.Errorf("dedup: type [%d]: %w", id, bad)
		}
	}
	return out, nil
}

// Signature hashes, computed as libbpf computes them (h*31 + v on 64 bits)
// so that candidate chains come out in libbpf's order.

func hashCombine(h, v uint64) uint64 { return h*31 + v }

func (d *deduper) hashCommon(id uint32) uint64 {
	h := &d.hdr[id]
	return hashCombine(hashCombine(hashCombine(0, uint64(h.name)), uint64(h.info)), uint64(h.sizeType))
}

func (d *deduper) hashTypedef(id uint32) uint64 {
	h := &d.hdr[id]
	return hashCombine(hashCombine(0, uint64(h.name)), uint64(h.info))
}

func (d *deduper) hashIntTag(id uint32) uint64 {
	return hashCombine(d.hashCommon(id), uint64(d.words[d.extStart[id]]))
}

func (d *deduper) hashEnum(id uint32) uint64 {
	return hashCombine(0, uint64(d.hdr[id].name))
}

func (d *deduper) hashStruct(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	for i := 0; i+2 < len(e); i += 3 {
		h = hashCombine(h, uint64(e[i]))
		h = hashCombine(h, uint64(e[i+2]))
	}
	return h
}

func (d *deduper) hashArray(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	return hashCombine(hashCombine(hashCombine(h, uint64(e[0])), uint64(e[1])), uint64(e[2]))
}

func (d *deduper) hashFnProto(id uint32) uint64 {
	h := d.hashCommon(id)
	e := d.ext(id)
	for i := 0; i+1 < len(e); i += 2 {
		h = hashCombine(h, uint64(e[i]))
		h = hashCombine(h, uint64(e[i+1]))
	}
	return h
}

// Equality and compatibility of single types (referenced IDs compared only
// where they are already canonical).

func (d *deduper) equalCommon(a, b uint32) bool { return d.hdr[a] == d.hdr[b] }

func (d *deduper) equalIntTag(a, b uint32) bool {
	return d.equalCommon(a, b) && d.words[d.extStart[a]] == d.words[d.extStart[b]]
}

func (d *deduper) equalEnum(a, b uint32) bool {
	if !d.equalCommon(a, b) {
		return false
	}
	return slices.Equal(d.ext(a), d.ext(b))
}

func isAnyEnum(k btf.Kind) bool { return k == btf.KindEnum || k == btf.KindEnum64 }

func (d *deduper) isEnumFwd(id uint32) bool {
	return isAnyEnum(d.kind(id)) && btf.VlenOf(d.hdr[id].info) == 0
}

// compatEnum: equal enums, or a forward-declared enum (vlen 0) and any enum
// or enum64 of the same name.
func (d *deduper) compatEnum(a, b uint32) bool {
	if !d.isEnumFwd(a) && !d.isEnumFwd(b) {
		return d.equalEnum(a, b)
	}
	return d.hdr[a].name == d.hdr[b].name && isAnyEnum(d.kind(a)) && isAnyEnum(d.kind(b))
}

func (d *deduper) shallowEqualStruct(a, b uint32) bool {
	if !d.equalCommon(a, b) {
		return false
	}
	ea, eb := d.ext(a), d.ext(b)
	for i := 0; i+2 < len(ea); i += 3 {
		if ea[i] != eb[i] || ea[i+2] != eb[i+2] {
			return false
		}
	}
	return true
}

func (d *deduper) equalTypedef(a, b uint32) bool {
	return d.hdr[a].name == d.hdr[b].name && d.hdr[a].info == d.hdr[b].info
}

func (d *deduper) compatArray(a, b uint32) bool {
	return d.equalCommon(a, b) && d.words[d.extStart[a]+2] == d.words[d.extStart[b]+2]
}

func (d *deduper) compatFnProto(a, b uint32) bool {
	if d.hdr[a].name != d.hdr[b].name || d.hdr[a].info != d.hdr[b].info {
		return false
	}
	ea, eb := d.ext(a), d.ext(b)
	for i := 0; i+1 < len(ea); i += 2 {
		if ea[i] != eb[i] {
			return false
		}
	}
	return true
}

// indexBase indexes the base's types as candidates (split dedup).
func (d *deduper) indexBase() {
	for id := uint32(1); id < d.start; id++ {
		var h uint64
		switch d.kind(id) {
		case btf.KindVar, btf.KindDatasec:
			continue
		case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindPtr,
			btf.KindFwd, btf.KindFunc, btf.KindFloat, btf.KindTypeTag:
			h = d.hashCommon(id)
		case btf.KindTypedef:
			h = d.hashTypedef(id)
		case btf.KindInt, btf.KindDeclTag:
			h = d.hashIntTag(id)
		case btf.KindEnum, btf.KindEnum64:
			h = d.hashEnum(id)
		case btf.KindStruct, btf.KindUnion:
			h = d.hashStruct(id)
		case btf.KindArray:
			h = d.hashArray(id)
		case btf.KindFuncProto:
			h = d.hashFnProto(id)
		}
		d.tab.add(h, id)
	}
}

// primTypes dedups the types that refer to no other type: INT, FLOAT,
// FWD, ENUM, ENUM64 (a forward-declared enum takes the full enum of its
// name; a canonical enum forward is redirected to a later full enum).
func (d *deduper) primTypes() error {
	for id := d.start; id < d.n; id++ {
		newID := id
		var h uint64
		switch d.kind(id) {
		case btf.KindInt:
			h = d.hashIntTag(id)
			d.tab.cands(h, func(c uint32) bool {
				if d.equalIntTag(id, c) {
					newID = c
					return false
				}
				return true
			})
		case btf.KindEnum, btf.KindEnum64:
			h = d.hashEnum(id)
			d.tab.cands(h, func(c uint32) bool {
				if d.equalEnum(id, c) {
					newID = c
					return false
				}
				if d.compatEnum(id, c) {
					if d.isEnumFwd(id) {
						newID = c
						return false
					}
					d.canonical[c] = id
				}
				return true
			})
		case btf.KindFwd, btf.KindFloat:
			h = d.hashCommon(id)
			d.tab.cands(h, func(c uint32) bool {
				if d.equalCommon(id, c) {
					newID = c
					return false
				}
				return true
			})
		default:
			continue
		}
		d.canonical[id] = newID
		if newID == id {
			d.tab.add(h, id)
		}
	}
	return nil
}

func (d *deduper) isMapped(id uint32) bool { return d.canonical[id] <= maxTypes }

func (d *deduper) resolve(id uint32) uint32 {
	for d.isMapped(id) && d.canonical[id] != id {
		id = d.canonical[id]
	}
	return id
}

func (d *deduper) resolveFwd(id uint32) uint32 {
	if d.kind(id) != btf.KindFwd {
		return id
	}
	r := d.resolve(id)
	if d.kind(r) != btf.KindFwd {
		return r
	}
	return id
}

func fwdKind(info uint32) btf.Kind {
	if btf.KindFlagOf(info) {
		return btf.KindUnion
	}
	return btf.KindStruct
}

// identical compares two types structurally, to a limited depth, without
// the hypothetical map: the fallback for a candidate graph that holds two
// copies of one type (compilers sometimes emit duplicate array, struct or
// pointer types within one unit).
func (d *deduper) identical(a, b uint32, depth int) bool {
	// Chains of modifiers and typedefs are followed without using up
	// depth, as libbpf does; steps only bounds them on malformed input
	// (a PTR cycle) so that the loop always ends.
	for steps := 0; steps < 1<<16; steps++ {
		if depth <= 0 {
			return false
		}
		ka, kb := d.kind(a), d.kind(b)
		if ka != kb {
			return false
		}
		switch ka {
		case btf.KindUnknown:
			return true
		case btf.KindInt:
			return d.equalIntTag(a, b)
		case btf.KindEnum, btf.KindEnum64:
			return d.compatEnum(a, b)
		case btf.KindFwd, btf.KindFloat:
			return d.equalCommon(a, b)
		case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindPtr,
			btf.KindTypedef, btf.KindFunc, btf.KindTypeTag:
			if d.hdr[a].info != d.hdr[b].info || d.hdr[a].name != d.hdr[b].name {
				return false
			}
			a, b = d.hdr[a].sizeType, d.hdr[b].sizeType
			if a == b {
				return true
			}
			continue
		case btf.KindArray:
			if !d.compatArray(a, b) {
				return false
			}
			ea, eb := d.ext(a), d.ext(b)
			// libbpf compares the array with itself here (a typo that
			// makes any two compatible arrays identical); we compare
			// the element and index types, which can only keep more
			// types apart in cases that do not arise from C.
			if ea[1] != eb[1] && !d.identical(ea[1], eb[1], depth-1) {
				return false
			}
			if ea[0] != eb[0] && !d.identical(ea[0], eb[0], depth-1) {
				return false
			}
			return true
		case btf.KindStruct, btf.KindUnion:
			if !d.shallowEqualStruct(a, b) {
				return false
			}
			ea, eb := d.ext(a), d.ext(b)
			for i := 1; i < len(ea); i += 3 {
				if ea[i] != eb[i] && !d.identical(ea[i], eb[i], depth-1) {
					return false
				}
			}
			return true
		case btf.KindFuncProto:
			if !d.compatFnProto(a, b) {
				return false
			}
			if d.hdr[a].sizeType != d.hdr[b].sizeType && !d.identical(d.hdr[a].sizeType, d.hdr[b].sizeType, depth-1) {
				return false
			}
			ea, eb := d.ext(a), d.ext(b)
			for i := 1; i < len(ea); i += 2 {
				if ea[i] != eb[i] && !d.identical(ea[i], eb[i], depth-1) {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}

func (d *deduper) clearHypothetical() {
	for _, id := range d.hypotheticalIDs {
		d.hypothetical[id] = unprocessed
	}
	d.hypotheticalIDs = d.hypotheticalIDs[:0]
	d.needsBaseChange = false
}

// isEquiv is the side-by-side DFS of the candidate graph (rooted at cand,
// the type being deduped) and the canonical graph (rooted at canon),
// recording canon -> cand in the hypothetical map; see doc.go.
func (d *deduper) isEquiv(cand, canon uint32) (bool, error) {
	if d.resolve(cand) == d.resolve(canon) {
		return true, nil
	}
	canon = d.resolveFwd(canon)
	if hy := d.hypothetical[canon]; hy <= maxTypes {
		if hy == cand {
			return true, nil
		}
		return d.identical(hy, cand, identDepth), nil
	}
	d.hypotheticalIDs = append(d.hypotheticalIDs, canon)
	d.hypothetical[canon] = cand

	candHdr, canonHdr := &d.hdr[cand], &d.hdr[canon]
	candKind, canonKind := btf.KindOf(candHdr.info), btf.KindOf(canonHdr.info)
	if candHdr.name != canonHdr.name {
		return false, nil
	}
	if (candKind == btf.KindFwd || canonKind == btf.KindFwd) && candKind != canonKind {
		// A FWD on one side, a STRUCT or UNION (or anything else) on
		// the other: equivalent when the FWD declares that kind.
		var defined, declared btf.Kind
		if candKind == btf.KindFwd {
			defined, declared = canonKind, fwdKind(candHdr.info)
		} else {
			defined, declared = candKind, fwdKind(canonHdr.info)
			if declared == defined && canon < d.start {
				d.needsBaseChange = true // a base FWD would have to change
			}
		}
		return declared == defined, nil
	}
	if candKind != canonKind {
		return false, nil
	}
	switch candKind {
	case btf.KindInt:
		return d.equalIntTag(cand, canon), nil
	case btf.KindEnum, btf.KindEnum64:
		return d.compatEnum(cand, canon), nil
	case btf.KindFwd, btf.KindFloat:
		return d.equalCommon(cand, canon), nil
	case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindPtr,
		btf.KindTypedef, btf.KindFunc, btf.KindTypeTag:
		if candHdr.info != canonHdr.info {
			return false, nil
		}
		return d.isEquiv(candHdr.sizeType, canonHdr.sizeType)
	case btf.KindArray:
		if !d.compatArray(cand, canon) {
			return false, nil
		}
		ce, ne := d.ext(cand), d.ext(canon)
		if eq, err := d.isEquiv(ce[1], ne[1]); !eq || err != nil {
			return eq, err
		}
		return d.isEquiv(ce[0], ne[0])
	case btf.KindStruct, btf.KindUnion:
		if !d.shallowEqualStruct(cand, canon) {
			return false, nil
		}
		ce, ne := d.ext(cand), d.ext(canon)
		for i := 1; i < len(ce); i += 3 {
			if eq, err := d.isEquiv(ce[i], ne[i]); !eq || err != nil {
				return eq, err
			}
		}
		return true, nil
	case btf.KindFuncProto:
		if !d.compatFnProto(cand, canon) {
			return false, nil
		}
		if eq, err := d.isEquiv(candHdr.sizeType, canonHdr.sizeType); !eq || err != nil {
			return eq, err
		}
		ce, ne := d.ext(cand), d.ext(canon)
		for i := 1; i < len(ce); i += 2 {
			if eq, err := d.isEquiv(ce[i], ne[i]); !eq || err != nil {
				return eq, err
			}
		}
		return true, nil
	}
	return false, fmt.Errorf("dedup: type [%d]: unexpected kind %s in a struct's type graph", cand, candKind)
}

// commitHypothetical makes the conclusions of a successful equivalence check
// permanent: FWDs resolve to the STRUCT/UNION they matched, and candidate
// structs whose counterpart is already canonical map onto it.
func (d *deduper) commitHypothetical() {
	for _, canonID := range d.hypotheticalIDs {
		targID := d.hypothetical[canonID]
		t := d.resolve(targID)
		c := d.resolve(canonID)
		tk, ck := d.kind(t), d.kind(c)
		if tk != btf.KindFwd && ck == btf.KindFwd {
			d.canonical[c] = t
		}
		if d.needsBaseChange {
			continue
		}
		if tk == btf.KindFwd && ck != btf.KindFwd {
			d.canonical[t] = c
		}
		if (tk == btf.KindStruct || tk == btf.KindUnion) && ck != btf.KindFwd &&
			d.isMapped(c) && !d.isMapped(t) {
			d.canonical[t] = c
		}
	}
}

// structTypes dedups STRUCT, UNION and TYPEDEF by type-graph equivalence.
func (d *deduper) structTypes() error {
	for id := d.start; id < d.n; id++ {
		if d.isMapped(id) {
			continue
		}
		k := d.kind(id)
		var h uint64
		switch k {
		case btf.KindStruct, btf.KindUnion:
			h = d.hashStruct(id)
		case btf.KindTypedef:
			h = d.hashTypedef(id)
		default:
			continue
		}
		newID := id
		var ferr error
		d.tab.cands(h, func(c uint32) bool {
			if k == btf.KindTypedef {
				if !d.equalTypedef(id, c) {
					return true
				}
			} else if !d.shallowEqualStruct(id, c) {
				return true
			}
			d.clearHypothetical()
			eq, err := d.isEquiv(id, c)
			if err != nil {
				ferr = err
				return false
			}
			if !eq {
				return true
			}
			d.commitHypothetical()
			if d.needsBaseChange {
				return true
			}
			newID = c
			return false
		})
		if ferr != nil {
			return ferr
		}
		d.canonical[id] = newID
		if newID == id {
			d.tab.add(h, id)
		}
	}
	d.clearHypothetical()
	return nil
}

// resolveFwds maps each FWD still canonical onto the one canonical
// STRUCT/UNION of its name, when exactly one exists and its kind matches.
func (d *deduper) resolveFwds() { d.resolveFwdsWith(nil, 1) }

// resolveFwdsWith is resolveFwds over the canonical structs and unions
// from type from on, plus base: names collected in advance (0 where
// ambiguous) for types below from that are not walked again. A name in
// both is ambiguous.
func (d *deduper) resolveFwdsWith(base map[uint32]uint32, from uint32) {
	names := make(map[uint32]uint32) // name -> canonical struct/union, 0 if ambiguous
	for id := from; id < d.n; id++ {
		k := d.kind(id)
		if k != btf.KindStruct && k != btf.KindUnion || d.canonical[id] != id {
			continue
		}
		name := d.hdr[id].name
		if _, dup := names[name]; dup {
			names[name] = 0
		} else {
			names[name] = id
		}
	}
	for id := d.start; id < d.n; id++ {
		if d.kind(id) != btf.KindFwd || d.canonical[id] != id {
			continue
		}
		name := d.hdr[id].name
		c, own := names[name]
		if bc, inBase := base[name]; inBase {
			if own {
				continue // two or more of that name
			}
			c = bc
		}
		if c == 0 || d.kind(c) != fwdKind(d.hdr[id].info) {
			continue
		}
		d.canonical[id] = c
	}
}

// refType dedups a reference type after the types it refers to, rewriting
// its references to canonical IDs so that plain equality decides.
func (d *deduper) refType(id uint32) (uint32, error) {
	switch m := d.canonical[id]; {
	case m == inProgress:
		return 0, fmt.Errorf("dedup: type [%d] %s: %w", id, d.kind(id), ErrTypeLoop)
	case m <= maxTypes:
		return d.resolve(id), nil
	}
	d.canonical[id] = inProgress
	h := &d.hdr[id]
	newID := id
	var hash uint64
	switch btf.KindOf(h.info) {
	case btf.KindConst, btf.KindVolatile, btf.KindRestrict, btf.KindPtr,
		btf.KindFunc, btf.KindTypeTag:
		r, err := d.refType(h.sizeType)
		if err != nil {
			return 0, err
		}
		h.sizeType = r
		hash = d.hashCommon(id)
		d.tab.cands(hash, func(c uint32) bool {
			if d.equalCommon(id, c) {
				newID = c
				return false
			}
			return true
		})
	case btf.KindDeclTag:
		r, err := d.refType(h.sizeType)
		if err != nil {
			return 0, err
		}
		h.sizeType = r
		hash = d.hashIntTag(id)
		d.tab.cands(hash, func(c uint32) bool {
			if d.equalIntTag(id, c) {
				newID = c
				return false
			}
			return true
		})
	case btf.KindArray:
		e := d.ext(id)
		r, err := d.refType(e[0])
		if err != nil {
			return 0, err
		}
		e[0] = r
		if r, err = d.refType(e[1]); err != nil {
			return 0, err
		}
		e[1] = r
		hash = d.hashArray(id)
		d.tab.cands(hash, func(c uint32) bool {
			if d.equalCommon(id, c) && slices.Equal(d.ext(c), e) {
				newID = c
				return false
			}
			return true
		})
	case btf.KindFuncProto:
		r, err := d.refType(h.sizeType)
		if err != nil {
			return 0, err
		}
		h.sizeType = r
		e := d.ext(id)
		for i := 1; i < len(e); i += 2 {
			if r, err = d.refType(e[i]); err != nil {
				return 0, err
			}
			e[i] = r
		}
		hash = d.hashFnProto(id)
		d.tab.cands(hash, func(c uint32) bool {
			if d.equalCommon(id, c) && slices.Equal(d.ext(c), e) {
				newID = c
				return false
			}
			return true
		})
	default:
		return 0, fmt.Errorf("dedup: type [%d]: unexpected kind %s among reference types", id, btf.KindOf(h.info))
	}
	d.canonical[id] = newID
	if newID == id {
		d.tab.add(hash, id)
	}
	return newID, nil
}

func (d *deduper) refTypes() error {
	for id := d.start; id < d.n; id++ {
		if _, err := d.refType(id); err != nil {
			return err
		}
	}
	return nil
}

// varTypes merges equal VARs, then equal DATASECs, then DECL_TAGs made
// equal by that, each onto its first occurrence. It runs after all other
// types are final, so their order and canonical choices stay libbpf's.
func (d *deduper) varTypes() {
	d.tab.reset()
	for _, pass := range []btf.Kind{btf.KindVar, btf.KindDatasec, btf.KindDeclTag} {
		for id := d.start; id < d.n; id++ {
			h := &d.hdr[id]
			if btf.KindOf(h.info) != pass || d.canonical[id] != id {
				continue
			}
			if pass == btf.KindDeclTag {
				if k := d.kind(d.resolve(h.sizeType)); k != btf.KindVar && k != btf.KindDatasec {
					continue
				}
			}
			if pass != btf.KindDatasec {
				h.sizeType = d.resolve(h.sizeType)
			}
			e := d.ext(id)
			if pass == btf.KindDatasec {
				for i := 0; i < len(e); i += 3 {
					e[i] = d.resolve(e[i])
				}
			}
			hash := d.hashCommon(id)
			for _, w := range e {
				hash = hashCombine(hash, uint64(w))
			}
			newID := id
			d.tab.cands(hash, func(c uint32) bool {
				if d.equalCommon(id, c) && slices.Equal(d.ext(c), e) {
					newID = c
					return false
				}
				return true
			})
			d.canonical[id] = newID
			if newID == id {
				d.tab.add(hash, id)
			}
		}
	}
}

// compactRemap keeps the canonical types in ID order, renumbers them and
// rewrites every reference, building the output Spec and the Mapping.
func (d *deduper) compactRemap(in *btf.Spec, strs []byte) (*btf.Spec, Mapping, error) {
	newID := d.hypothetical // reused, as libbpf does
	if d.identity != nil {
		copy(newID, d.identity[:d.start])
	} else {
		for id := uint32(0); id < d.start; id++ {
			newID[id] = id
		}
	}
	next := d.start
	nw := 0
	for id := d.start; id < d.n; id++ {
		if d.canonical[id] == id {
			newID[id] = next
			next++
			nw += int(d.extStart[id+1] - d.extStart[id])
		} else {
			newID[id] = unprocessed
		}
	}
	var out *btf.Spec
	if base := in.Base(); base != nil {
		out = btf.NewSplitSpec(base)
	} else {
		out = btf.NewSpec()
	}
	out.Reserve(int(next-d.start), nw)
	var bad uint32
	remap := func(p *uint32) {
		n := newID[d.resolve(*p)]
		if n > maxTypes {
			bad = *p
		}
		*p = n
	}
	for id := d.start; id < d.n; id++ {
		if d.canonical[id] != id {
			continue
		}
		h := d.hdr[id]
		e := d.ext(id)
		btf.ForEachTypeRef(h.info, &h.sizeType, e, remap)
		if bad != 0 {
			return nil, Mapping{}, fmt.Errorf("dedup: type [%d] refers to type %d, which has no canonical type", id, bad)
		}
		out.AddRaw(h.name, h.info, h.sizeType, e...)
	}
	out.SetRawStrings(strs)
	out.SetHeaderLen(in.HeaderLen())     // libbpf dedups in place, header included
	out.SetKindLayouts(in.KindLayouts()) // and keeps its kind layout section
	m := Mapping{first: btf.TypeID(d.start), ids: make([]btf.TypeID, d.n-d.start)}
	for id := d.start; id < d.n; id++ {
		m.ids[id-d.start] = btf.TypeID(newID[d.resolve(id)])
	}
	return out, m, nil
}
