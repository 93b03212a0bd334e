package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Phase 1: the string table, rebuilt with each referenced string once.

// dedupStrings rebuilds the input's own string table with each string
// once, in first-reference order (type by type, name before member
// names), dropping strings no type references; strings the base has map to
// the base's offsets. It rewrites the own types' string offsets.
func (d *deduper) dedupStrings(in *btf.Spec) ([]byte, error) {
	startStr := in.StringsStart()
	old := in.RawStrings()
	base := in.Base()
	cache := make([]uint32, len(old)) // new offset + 1, 0 = not seen yet
	out := newInterner(len(old)/32, base == nil)
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
			no = startStr + out.add(s)
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
	return out.strs, nil
}

// orderStrings is dedupStrings for a base Spec whose table has each
// string once and whose types refer only to starts of strings
// (Options.UniqueStrings): the strings are copied in first-reference
// order, none looked up.
func (d *deduper) orderStrings(in *btf.Spec) ([]byte, error) {
	o := newStrOrder(in.RawStrings())
	if err := o.run(d, d.start, d.n); err != nil {
		return nil, err
	}
	return o.out, nil
}

// strOrder is orderStrings's state, which can be run over the types in
// several ranges, in ID order, and given a longer table between runs.
type strOrder struct {
	old   []byte
	cache []uint32 // by offset / 2: new offset + 1, 0 = not seen yet
	out   []byte
}

// newStrOrder starts ordering the strings of table old. Two strings start
// at least 2 bytes apart (one character and the NUL), so half an offset
// indexes the cache.
func newStrOrder(old []byte) *strOrder {
	return &strOrder{old: old, cache: make([]uint32, len(old)/2+1), out: make([]byte, 1, len(old))}
}

// extend gives o the table old, whose start is the table o had.
func (o *strOrder) extend(old []byte) {
	o.old = old
	if n := len(old)/2 + 1; n > len(o.cache) {
		o.cache = append(o.cache, make([]uint32, n-len(o.cache))...)
	}
}

// run rewrites the string offsets of types from .. to-1 of d.
func (o *strOrder) run(d *deduper, from, to uint32) error {
	old := o.old
	var bad error
	remap := func(p *uint32) {
		rel := *p
		if rel == 0 || bad != nil {
			return
		}
		if int(rel) >= len(old) {
			bad = fmt.Errorf("string offset %d past the end of the string table (%d bytes)", rel, len(old))
			return
		}
		c := &o.cache[rel/2]
		if *c != 0 {
			*p = *c - 1
			return
		}
		s := btf.CString(old[rel:])
		no := uint32(0)
		if s != "" {
			no = uint32(len(o.out))
			o.out = append(o.out, s...)
			o.out = append(o.out, 0)
		}
		*c = no + 1
		*p = no
	}
	for id := from; id < to; id++ {
		h := &d.hdr[id]
		btf.ForEachStringRef(h.info, &h.name, d.ext(id), remap)
		if bad != nil {
			return fmt.Errorf("dedup: type [%d]: %w", id, bad)
		}
	}
	return nil
}
