package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// MergeDedup deduplicates specs, base Specs (numbered from 1), as one:
// its result and Mapping are, byte for byte, those of
// Dedup(Merge(specs...), opts) (opts.Base must be nil), and the Mapping's
// input IDs are the merged ones (FirstIDs). It reads the specs' types
// straight into a Builder, renumbering and interning their strings on
// the way, without the merged Spec between.
func MergeDedup(specs []*btf.Spec, opts Options) (*btf.Spec, Mapping, error) {
	if opts.Base != nil {
		return nil, Mapping{}, fmt.Errorf("dedup: MergeDedup does not take a prepared base")
	}
	nt, nw, ns := 0, 0, 0
	for i, s := range specs {
		if s.Base() != nil {
			return nil, Mapping{}, fmt.Errorf("dedup: merge: spec %d is split BTF", i)
		}
		nt += s.NumTypes()
		nw += s.NumWords()
		ns += s.StringsLen()
	}
	if uint64(nt) > maxTypes {
		return nil, Mapping{}, fmt.Errorf("dedup: merge: %d types is more than BTF allows", nt)
	}
	b := NewBuilder(nt, nw, ns)
	if err := b.mergeIn(specs, nt, nw); err != nil {
		return nil, Mapping{}, err
	}
	return b.Dedup(opts)
}

// Builder collects types for one deduplication, as MergeDedup reads them
// from Specs but from any source: its caller appends types (AddRaw) whose
// references are the Builder's IDs (from 1, in the order added) and whose
// string offsets String gave, and Dedup deduplicates them in place. Its
// string table holds each string once, in the order first seen: for
// Dedup's result to be Dedup's of the same types in a Spec, strings must
// be added in first-reference order (each type's strings, as
// btf.ForEachStringRef visits them, before the next type's). The archive
// route (encode/frombtf) builds each group of members this way, without
// a merged Spec in between.
type Builder struct {
	d       deduper
	strs    *interner
	hdrLen  uint32
	layouts []btf.KindLayout
	err     error
	// refsChecked says every type reference is known to be below
	// NextID: MergeDedup's copy checked each against its spec's range.
	refsChecked bool
}

// NewBuilder returns an empty Builder with room for about types types,
// words trailing words and strBytes bytes of (not yet deduplicated)
// strings.
func NewBuilder(types, words, strBytes int) *Builder {
	return (*Builder)(nil).recycle(types, words, strBytes, 0)
}

// recycle returns an empty Builder, as NewBuilder(types, words,
// strBytes) does, with an index for about nStrings strings (<= 0:
// strBytes/64), that reuses b's tables where they are large enough: a
// job that builds one group after another allocates (and the kernel
// zeroes pages for) them once, not once a group. b may be nil, and must
// not be used afterwards. The Spec b's Dedup or Spec returned stays
// valid: it shares only b's string table, which is never reused.
func (b *Builder) recycle(types, words, strBytes, nStrings int) *Builder {
	if b == nil {
		b = &Builder{}
	}
	if nStrings <= 0 {
		nStrings = strBytes / 64
	}
	nb := &Builder{strs: b.strs.recycle(nStrings, true), hdrLen: btf.HeaderLen}
	// strBytes bounds the table: room for it from the start, rather than
	// doubling (and copying into fresh pages) as it fills; the pages
	// past the strings kept are never touched.
	nb.strs.strs = append(make([]byte, 0, strBytes+1), nb.strs.strs...)
	d := &nb.d
	d.start, d.n = 1, 1
	d.tablesFrom(&b.d, 1, types, words)
	*b = Builder{}
	return nb
}

// String returns the offset of str in b's string table, adding it if it
// is not there yet; "" is 0.
func (b *Builder) String(str string) uint32 { return b.strs.add(str) }

// NextID is the ID the next type added gets.
func (b *Builder) NextID() btf.TypeID { return btf.TypeID(b.d.n) }

// stringMap returns a stringMap into b's string table, to Reset to each
// Spec whose types are appended.
func (b *Builder) stringMap() *stringMap { return &stringMap{strs: b.strs, noCache: true} }

// noteHeader takes s's header length and kind layout section as Merge
// takes them from its inputs: the longest header, the first layout
// section.
func (b *Builder) noteHeader(s *btf.Spec) {
	b.hdrLen = max(b.hdrLen, s.HeaderLen())
	if b.layouts == nil {
		b.layouts = s.KindLayouts()
	}
}

// AddRaw appends a type (see Builder for its references and strings) and
// returns its ID. The trailing words are copied.
func (b *Builder) AddRaw(nameOff, info, sizeType uint32, ext ...uint32) btf.TypeID {
	return b.d.appendRaw(&b.err, nameOff, info, sizeType, ext)
}

// Spec returns the types added, not deduplicated, as a Spec: what Merge
// returns for the same types (a FWD's size/type word reads 0).
func (b *Builder) Spec() (*btf.Spec, error) {
	if b.err != nil {
		return nil, b.err
	}
	d := &b.d
	out := btf.NewSpec()
	out.Reserve(int(d.n-1), len(d.words))
	for id := uint32(1); id < d.n; id++ {
		h := d.hdr[id]
		out.AddRaw(h.name, h.info, h.sizeType, d.ext(id)...)
	}
	out.SetRawStrings(b.strs.strs)
	out.SetHeaderLen(b.hdrLen)
	out.SetKindLayouts(b.layouts)
	return out, nil
}

// Dedup deduplicates the types added, as Dedup does them in a Spec
// (opts.Base must be nil), and returns the result and the mapping of the
// Builder's IDs to the result's. The Builder must not be used
// afterwards.
func (b *Builder) Dedup(opts Options) (*btf.Spec, Mapping, error) {
	if opts.Base != nil {
		return nil, Mapping{}, fmt.Errorf("dedup: a Builder does not take a prepared base")
	}
	if b.err != nil {
		return nil, Mapping{}, b.err
	}
	d := &b.d
	if !b.refsChecked {
		if err := d.checkRefs(1); err != nil {
			return nil, Mapping{}, err
		}
	}
	strLen := len(b.strs.strs)
	if uint64(strLen) > 1<<32-1 {
		return nil, Mapping{}, fmt.Errorf("dedup: merge: %d bytes of strings do not fit in BTF's 32-bit offsets", strLen)
	}
	clk := startClock(opts.Stats)
	d.tab.reserve(int(d.n)) // at most one entry a type
	if err := d.typePhases(opts, clk, d.resolveFwds); err != nil {
		return nil, Mapping{}, err
	}
	d.tab.reset() // its memory kept for recycle
	out, m, err := d.compact(nil, b.hdrLen, b.layouts, b.strs.strs, true)
	if err != nil {
		return nil, Mapping{}, err
	}
	clk.lap(phCompact)
	return out, m, nil
}
