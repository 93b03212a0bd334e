package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Phase 3, structs, unions and typedefs: the side-by-side walk of two
// type graphs with the hypothetical map (see doc.go).

// structTypes dedups STRUCT, UNION and TYPEDEF by type-graph equivalence.
func (d *deduper) structTypes() error { return d.structTypesIn(d.start, d.n) }

// structTypesIn is structTypes over the types from .. to-1. Its candidates
// come from d.seq when set (a Stream's), else from d.tab.
func (d *deduper) structTypesIn(from, to uint32) error {
	for id := from; id < to; id++ {
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
		d.structCands(h, id, func(c uint32) bool {
			if !d.mayEquiv(k, id, c) {
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
			d.structAdd(h, id)
		}
	}
	d.clearHypothetical()
	return nil
}

// structCands calls fn with the candidates for type id, whose hash is h,
// until fn returns false.
func (d *deduper) structCands(h uint64, id uint32, fn func(c uint32) bool) {
	if d.seq != nil {
		d.seq.cands(h, fn, func(c uint32) bool { return d.wouldMatch(id, c) })
		return
	}
	d.tab.cands(h, fn)
}

// wouldMatch reports whether type id (a struct, union or typedef) is
// equivalent to candidate c, as structTypes decides it, without
// committing anything; an error counts as a match (the decision will
// meet it).
func (d *deduper) wouldMatch(id, c uint32) bool {
	if !d.mayEquiv(d.kind(id), id, c) {
		return false
	}
	d.clearHypothetical()
	eq, err := d.isEquiv(id, c)
	d.clearHypothetical()
	return eq || err != nil
}

// mayEquiv is the check on candidate c before the walk that decides
// whether type id, of kind k (a struct, union or typedef), is equivalent
// to it: the same name and kind (a typedef), or the same header (a
// struct or union). It leaves out what isEquiv checks first thing on
// such a pair, the members' names and offsets (shallowEqualStruct),
// which were compared twice for every struct that matched.
func (d *deduper) mayEquiv(k btf.Kind, id, c uint32) bool {
	if k == btf.KindTypedef {
		return d.equalTypedef(id, c)
	}
	return d.equalCommon(id, c)
}

func (d *deduper) structAdd(h uint64, id uint32) {
	if d.seq != nil {
		d.seq.add(h, id)
		return
	}
	d.tab.add(h, id)
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
		// Typedefs too (libbpf maps only structs and unions): a chain
		// of typedefs is otherwise walked again from each of its links,
		// quadratic in its length (TestDeepGraphs' typedef chain in
		// two copies took 76 s).
		if tk == btf.KindTypedef && ck == btf.KindTypedef && d.isMapped(c) && !d.isMapped(t) {
			d.canonical[t] = c
		}
	}
}

func (d *deduper) clearHypothetical() {
	for _, id := range d.hypotheticalIDs {
		d.hypothetical[id] = unprocessed
	}
	d.hypotheticalIDs = d.hypotheticalIDs[:0]
	d.needsBaseChange = false
}

// identical compares two types structurally, to a limited depth, without
// the hypothetical map: the fallback for a candidate graph that holds two
// copies of one type (compilers sometimes emit duplicate array, struct or
// pointer types within one unit).
//
// Unlike libbpf's btf_dedup_identical_types, a pair of composite types
// met again while it is being compared counts as identical (the
// comparison is co-inductive, as the hypothetical map's own walk is):
// two copies of a struct that points to itself are identical, where
// libbpf's walk goes round the cycle until its depth runs out and keeps
// both. Without this, deduplicating two copies of a BTF could keep a
// type that deduplicating one copy merges (FuzzDedup found such a
// struct), so Dedup(A+A) differed from Dedup(A).
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
		case btf.KindArray, btf.KindStruct, btf.KindUnion, btf.KindFuncProto:
			for _, p := range d.identPairs {
				if p == [2]uint32{a, b} {
					return true
				}
			}
			d.identPairs = append(d.identPairs, [2]uint32{a, b})
			eq := d.identicalComposite(ka, a, b, depth)
			d.identPairs = d.identPairs[:len(d.identPairs)-1]
			return eq
		default:
			return false
		}
	}
	return false
}

// identicalComposite is identical for two arrays, structs, unions or
// function prototypes of kind k.
func (d *deduper) identicalComposite(k btf.Kind, a, b uint32, depth int) bool {
	switch k {
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
	}
	return false
}
