package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// MergeDedup deduplicates specs, base Specs (numbered from 1), as one:
// its result and Mapping are, byte for byte, those of
// Dedup(Merge(specs...), opts) (opts.Base must be nil), and the Mapping's
// input IDs are the merged ones (FirstIDs). It reads the specs' types
// straight into the working tables, renumbering and interning their
// strings on the way, without the merged Spec between: the archive route
// deduplicates its members this way, group by group.
func MergeDedup(specs []*btf.Spec, opts Options) (*btf.Spec, Mapping, error) {
	if opts.Base != nil {
		return nil, Mapping{}, fmt.Errorf("dedup: MergeDedup does not take a prepared base")
	}
	for i, s := range specs {
		if s.Base() != nil {
			return nil, Mapping{}, fmt.Errorf("dedup: merge: spec %d is split BTF", i)
		}
	}
	clk := startClock(opts.Stats)
	d, strs, err := loadMerged(specs)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phStrings)
	if err := d.primTypes(); err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phPrim)
	if err := d.structTypes(); err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phStruct)
	if !opts.NoNameFwdResolution {
		d.resolveFwds()
	}
	clk.lap(phFwd)
	if err := d.refTypes(); err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phRef)
	if !opts.KeepDuplicateVars {
		d.varTypes()
	}
	clk.lap(phVar)
	d.tab = table{}
	// Merge's header length and kind layout section.
	hl := uint32(0)
	var layouts []btf.KindLayout
	for _, s := range specs {
		hl = max(hl, s.HeaderLen())
		if layouts == nil {
			layouts = s.KindLayouts()
		}
	}
	if len(specs) == 0 {
		hl = btf.NewSpec().HeaderLen()
	}
	out, m, err := d.compact(nil, hl, layouts, strs)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phCompact)
	return out, m, nil
}

// loadMerged is load and dedupStrings of Merge(specs...), done at once:
// each spec's type IDs are shifted to their merged place and its string
// offsets rewritten to the deduplicated table, which holds each string
// once in first-reference order (what dedupStrings makes of Merge's
// table, itself in first-reference order).
func loadMerged(specs []*btf.Spec) (*deduper, []byte, error) {
	nt, nw := 0, 0
	for _, s := range specs {
		nt += s.NumTypes()
		nw += s.NumWords()
	}
	if uint64(nt) > maxTypes {
		return nil, nil, fmt.Errorf("dedup: merge: %d types is more than BTF allows", nt)
	}
	n := uint32(nt) + 1
	d := &deduper{start: 1, n: n}
	d.hdr = make([]typeHeader, n)
	d.extStart = make([]uint32, n+1)
	d.words = make([]uint32, 0, nw)
	d.canonical = make([]uint32, n)
	d.hypothetical = make([]uint32, n)
	strBytes := 0
	for _, s := range specs {
		strBytes += len(s.RawStrings())
	}
	// An archive member's strings are 20 bytes on average, and most
	// repeat other members'.
	strs := newInterner(strBytes/64, true)
	var cache []uint32 // new offset + 1 by offset in the current spec's table
	id := uint32(1)
	for i, s := range specs {
		first := uint32(s.FirstID())
		next := uint32(s.NextID())
		idShift := id - first
		old := s.RawStrings()
		if cap(cache) < len(old) {
			cache = make([]uint32, len(old))
		} else {
			cache = cache[:len(old)]
			clear(cache)
		}
		var bad error
		shiftType := func(p *uint32) {
			if *p >= first {
				if *p >= next && bad == nil {
					bad = fmt.Errorf("refers to type %d, past the last type %d", *p, next-1)
				}
				*p += idShift
			}
		}
		internString := func(p *uint32) {
			if *p == 0 || bad != nil {
				return
			}
			rel := *p
			if int(rel) >= len(old) {
				bad = fmt.Errorf("string offset %d past the end of the string table", *p)
				return
			}
			if c := cache[rel]; c != 0 {
				*p = c - 1
				return
			}
			str := btf.CString(old[rel:])
			no := strs.add(str)
			cache[rel] = no + 1
			*p = no
		}
		for sid := btf.TypeID(first); sid < btf.TypeID(next); sid++ {
			name, info, st, ext := s.RawType(sid)
			k := btf.KindOf(info)
			if k == btf.KindUnknown || k > btf.MaxKind {
				return nil, nil, fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
			}
			if k == btf.KindFwd {
				st = 0 // as load does
			}
			at := len(d.words)
			d.words = append(d.words, ext...)
			e := d.words[at:]
			btf.ForEachTypeRef(info, &st, e, shiftType)
			btf.ForEachStringRef(info, &name, e, internString)
			if bad != nil {
				return nil, nil, fmt.Errorf("dedup: merge: spec %d type [%d]: %w", i, sid, bad)
			}
			d.hdr[id] = typeHeader{name, info, st}
			d.extStart[id] = uint32(at)
			if k == btf.KindVar || k == btf.KindDatasec {
				d.canonical[id] = id
			} else {
				d.canonical[id] = unprocessed
			}
			d.hypothetical[id] = unprocessed
			id++
		}
		if uint64(len(strs.strs)) > 1<<32-1 {
			return nil, nil, fmt.Errorf("dedup: merge: %d bytes of strings do not fit in BTF's 32-bit offsets", len(strs.strs))
		}
	}
	d.extStart[n] = uint32(len(d.words))
	return d, strs.strs, nil
}
