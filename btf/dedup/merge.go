package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// Merge concatenates Specs into one, in argument order, without
// deduplicating: the types of specs[1] follow those of specs[0] and so on,
// each one's type IDs and string offsets shifted to its new place. All
// specs must be base Specs, or all split Specs against the same base; the
// result is split against that base too.
//
// Strings are interned: the result's table holds each referenced string
// once, in first-reference order, as libbpf's btf__add_btf builds it.
func Merge(specs ...*btf.Spec) (*btf.Spec, error) {
	if len(specs) == 0 {
		return btf.NewSpec(), nil
	}
	base := specs[0].Base()
	for i, s := range specs {
		if s.Base() != base {
			return nil, fmt.Errorf("dedup: merge: spec %d has a different base than spec 0", i)
		}
	}
	return MergeOnto(base, specs...)
}

// MergeOnto is Merge with an explicit base: the result is split against
// base (a base Spec when base is nil), and each spec is either split
// against that same base or a standalone base Spec whose types are
// appended as they are (they refer to none of base's types). The latter is
// how per-unit fragments, each numbered from 1, become one module BTF to
// deduplicate against vmlinux.
func MergeOnto(base *btf.Spec, specs ...*btf.Spec) (*btf.Spec, error) {
	for i, s := range specs {
		if s.Base() != nil && s.Base() != base {
			return nil, fmt.Errorf("dedup: merge: spec %d is split against a different base", i)
		}
	}
	nt, nw := 0, 0
	strBytes := 0
	for _, s := range specs {
		nt += s.NumTypes()
		nw += s.NumWords()
		strBytes += len(s.RawStrings())
	}
	firstID := btf.TypeID(1)
	if base != nil {
		firstID = base.NextID()
	}
	if uint64(nt)+uint64(firstID) > maxTypes {
		return nil, fmt.Errorf("dedup: merge: %d types is more than BTF allows", nt)
	}
	m := NewMerger(base, nt, nw, strBytes)
	for _, s := range specs {
		if _, err := m.Add(s); err != nil {
			return nil, err
		}
	}
	return m.Spec(), nil
}

// Merger is MergeOnto one Spec at a time: Add appends each spec in turn
// (the caller need not have them all at once, e.g. while later ones are
// still being made); Spec returns the result, the same as MergeOnto of
// the specs added.
type Merger struct {
	out      *btf.Spec
	strs     *interner
	outStart uint32
	n        int // specs added
	capT     int // types and words the out Spec has room for
	capW     int
	strMap   stringMap // the current spec's string offsets into strs
	ext      []uint32
	hl       uint32
	layout   []btf.KindLayout // the first input's kind layout section
}

// NewMerger returns a Merger onto base (nil: the result is a base Spec),
// with room for about types types, words trailing words and strBytes
// bytes of the specs' string tables (hints: it grows as needed).
func NewMerger(base *btf.Spec, types, words, strBytes int) *Merger {
	var out *btf.Spec
	if base != nil {
		out = btf.NewSplitSpec(base)
	} else {
		out = btf.NewSpec()
	}
	out.Reserve(types, words)
	// Strings are interned as types reference them: the merged table
	// holds each string once, in first-reference order (what Dedup would
	// make of it anyway), so its size is that of the distinct strings, not
	// of thousands of per-unit tables. Each spec's offsets are translated
	// through a per-spec cache, so each string of a spec costs one map
	// look-up.
	// Offset 0 is the empty string of a base; a split one's own table
	// starts with its first string.
	return &Merger{out: out, strs: newInterner(strBytes/64, base == nil), outStart: out.StringsStart(), capT: types, capW: words}
}

// Add appends the types of s (split against the Merger's base, or a
// standalone base Spec; see MergeOnto) and returns the ID its first own
// type got. After an error the Merger must not be used any more.
func (m *Merger) Add(s *btf.Spec) (btf.TypeID, error) {
	i := m.n
	m.n++
	out := m.out
	if s.Base() != nil && s.Base() != out.Base() {
		return 0, fmt.Errorf("dedup: merge: spec %d is split against a different base", i)
	}
	firstOut := out.NextID()
	nt, nw := s.NumTypes(), s.NumWords()
	if uint64(nt)+uint64(firstOut) > maxTypes {
		return 0, fmt.Errorf("dedup: merge: %d types is more than BTF allows", int(firstOut-out.FirstID())+nt)
	}
	// Room doubles, so that many small Adds do not copy the types
	// again each time.
	have := int(firstOut - out.FirstID())
	words := out.NumWords()
	if have+nt > m.capT || words+nw > m.capW {
		gt, gw := max(nt, have+nt), max(nw, words+nw)
		out.Reserve(gt, gw)
		m.capT, m.capW = have+gt, words+gw
	}
	strs := m.strs
	outStart := m.outStart
	first := s.FirstID()
	idShift := uint32(firstOut) - uint32(first)
	sm := &m.strMap
	sm.strs, sm.shift = strs, outStart
	sm.Reset(s)
	ext := m.ext
	var bad error
	var name, info, st uint32 // declared once, outside the loop: their addresses escape to the callbacks
	var e []uint32
	for id := first; id < s.NextID(); id++ {
		name, info, st, e = s.RawType(id)
		ext = append(ext[:0], e...)
		btf.ForEachTypeRef(info, &st, ext, func(p *uint32) {
			if *p >= uint32(first) {
				if *p >= uint32(s.NextID()) && bad == nil {
					bad = fmt.Errorf("refers to type %d, past the last type %d", *p, s.NextID()-1)
				}
				*p += idShift
			}
		})
		btf.ForEachStringRef(info, &name, ext, func(p *uint32) {
			if bad == nil {
				bad = sm.Map(p)
			}
		})
		if bad != nil {
			return 0, fmt.Errorf("dedup: merge: spec %d type [%d]: %w", i, id, bad)
		}
		out.AddRaw(name, info, st, ext...)
	}
	m.ext = ext
	if uint64(outStart)+uint64(len(strs.strs)) > 1<<32-1 {
		return 0, fmt.Errorf("dedup: merge: %d bytes of strings do not fit in BTF's 32-bit offsets", len(strs.strs))
	}
	m.hl = max(m.hl, s.HeaderLen())
	if l := s.KindLayouts(); l != nil && m.layout == nil {
		m.layout = l
	}
	return firstOut, nil
}

// String returns the offset of str in the merged string table, adding
// it if it is not there yet: for names that the caller will refer to
// from types it adds to the merged Spec later.
func (m *Merger) String(str string) uint32 {
	if str == "" && m.strs.zero {
		return 0
	}
	return m.outStart + m.strs.add(str)
}

// table returns the merged string table so far: the Merger's memory,
// which later Adds and Strings append to.
func (m *Merger) table() []byte { return m.strs.strs }

// partial returns the Spec being built, to read the types added so far
// between Adds (their name offsets are final; the string table is only
// set by Spec).
func (m *Merger) partial() *btf.Spec { return m.out }

// Spec returns the merged Spec. The Merger must not be used after.
func (m *Merger) Spec() *btf.Spec {
	m.out.SetRawStrings(m.strs.strs)
	m.out.SetHeaderLen(m.hl)
	if m.layout != nil {
		m.out.SetKindLayouts(m.layout)
	}
	return m.out
}

// FirstIDs returns, for each spec, the merged ID its first own type gets in
// MergeOnto(base, specs...) (and Merge, whose base is the specs' own): type
// x of specs[i] has the merged ID FirstIDs(base, specs)[i] + (x -
// specs[i].FirstID()), which a Mapping of Dedup on the merged Spec then
// maps to its output ID.
func FirstIDs(base *btf.Spec, specs []*btf.Spec) []btf.TypeID {
	next := btf.TypeID(1)
	if base != nil {
		next = base.NextID()
	}
	ids := make([]btf.TypeID, len(specs))
	for i, s := range specs {
		ids[i] = next
		next += btf.TypeID(s.NumTypes())
	}
	return ids
}
