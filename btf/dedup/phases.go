package dedup

import (
	"fmt"
	"slices"

	"github.com/btfkit/btfkit/btf"
)

// The phases around the graph one (equiv.go), in the order Dedup runs
// them: the base's types as candidates, primitive types, FWDs by name,
// reference types, then VARs and DATASECs; and resolve, which follows a
// type's chain of canonical representatives.

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
func (d *deduper) primTypes() error { return d.primTypesIn(max(d.start, d.primsDone), d.n) }

// primTypesIn is primTypes over the types from .. to-1.
func (d *deduper) primTypesIn(from, to uint32) error {
	for id := from; id < to; id++ {
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

func (d *deduper) refTypes() error { return d.refTypesIn(d.start, d.n) }

// refTypesIn is refTypes over the types from .. to-1 (and those they
// refer to).
func (d *deduper) refTypesIn(from, to uint32) error {
	for id := from; id < to; id++ {
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
