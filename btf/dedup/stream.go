package dedup

import (
	"fmt"
	"runtime"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/offheap"
)

// Stream deduplicates a complete BTF (one without a base) while it is
// being built: types are appended unit by unit (AddRaw, then EndUnit),
// and Finish returns what Dedup returns for all of them, byte for byte
// (with KeepDuplicateVars, and the caller's string table kept as it is).
//
// It exists for the encoder, which merges per-unit fragments in unit
// order while its workers convert the next units: EndUnit runs the
// primitive and struct phases over the unit just appended there and then,
// so that most of the deduplication overlaps the conversion instead of
// following it, and the merged types are deduplicated where they lie,
// without the copy Dedup makes of its input.
//
// Why the phases may run unit by unit: type references never cross units
// (a unit's types refer to its own types), and both phases walk the types
// in ID order. The primitive phase decides a type by the primitive types
// before it. The struct phase compares a type's graph (its own unit's
// types) with canonical types already chosen (earlier units' and its
// own): what later units add does not change its outcome, with two
// exceptions. A later full enum may take over an enum forward declared
// earlier; the struct phase compares enums by their names and values,
// not by their canonical types, so that cannot change it. And the
// candidate index Dedup keeps is libbpf's hashmap, whose order among a
// key's candidates depends on how often the table grew, which depends on
// the number of primitive types of all units; seqIndex works the order
// out for the number known so far and Finish checks every choice it made
// against the final number, redoing both phases from the start the way
// Dedup does if one would differ.
//
// A Stream is used by one goroutine at a time.
type Stream struct {
	d       deduper
	seq     seqIndex // the struct phase's index (d.tab is the primitive phase's)
	checked uint32   // types below this ID have been through both phases
	err     error
	stats   *Stats
	// mapped holds the tables Reserve made outside the Go heap, given
	// back by Finish (or when the Stream is dropped unfinished).
	mapped *offRegions
	// For tests: the choices between several candidates the struct
	// phase made, and whether Finish had to redo the phases.
	choices int
	redone  bool
}

// NewStream returns an empty Stream. stats, when not nil, gets the time
// of each phase added to it.
func NewStream(stats *Stats) *Stream {
	s := &Stream{stats: stats, mapped: new(offRegions)}
	// A Stream dropped without Finish (an encoder's error) gives its
	// mapped tables back when it is collected.
	runtime.AddCleanup(s, (*offRegions).free, s.mapped)
	d := &s.d
	d.start, d.n = 1, 1
	d.hdr = []typeHeader{{}}
	d.extStart = []uint32{0, 0}
	d.canonical = []uint32{0}
	d.hypothetical = []uint32{0}
	d.seq = &s.seq
	s.seq.prims = func() int { return len(s.d.tab.keys) }
	s.checked = 1
	return s
}

// Reserve makes room for n more types with w more trailing words. Large
// tables (a vmlinux's, ~190 MB) are made outside the Go heap
// (internal/offheap) until Finish: on the heap they would count toward
// the collector's goal, letting the garbage of the walk grow by GOGC
// percent of them, and their unwritten capacity would count as live.
func (s *Stream) Reserve(n, w int) {
	d := &s.d
	d.hdr = growOff(d.hdr, n, s.mapped)
	d.extStart = growOff(d.extStart, n, s.mapped)
	d.canonical = growOff(d.canonical, n, s.mapped)
	d.hypothetical = growOff(d.hypothetical, n, s.mapped)
	d.words = growOff(d.words, w, s.mapped)
}

// growOff makes room for n more elements after s's, a new array of a
// megabyte or more made outside the Go heap and its region added to
// regions.
func growOff[T any](s []T, n int, regions *offRegions) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	t, r := offheap.Slice[T](len(s) + n)
	if r != nil {
		regions.list = append(regions.list, r)
	}
	return append(t, s...)
}

// offRegions lists the memory a Stream holds outside the Go heap.
type offRegions struct{ list []*offheap.Region }

func (o *offRegions) free() {
	for _, r := range o.list {
		r.Free()
	}
	o.list = nil
}

// free gives back the tables made outside the Go heap; s must not be
// used afterwards.
func (s *Stream) free() {
	s.d = deduper{}
	s.mapped.free()
}

// NextID is the ID the next type appended gets.
func (s *Stream) NextID() btf.TypeID { return btf.TypeID(s.d.n) }

// AddRaw appends a type given its header fields and trailing words (as
// btf.Spec.AddRaw) and returns its ID. The trailing words are copied.
func (s *Stream) AddRaw(nameOff, info, sizeType uint32, ext ...uint32) btf.TypeID {
	return s.d.appendRaw(&s.err, nameOff, info, sizeType, ext)
}

// appendRaw appends a type to d's tables, as load would have read it (a
// FWD's size/type word 0; VARs and DATASECs their own canonical types),
// and returns its ID; the first malformation it meets is left in *errp.
func (d *deduper) appendRaw(errp *error, nameOff, info, sizeType uint32, ext []uint32) btf.TypeID {
	id := d.n
	k := btf.KindOf(info)
	if k == btf.KindFwd {
		sizeType = 0 // as load does
	}
	if (k == btf.KindUnknown || k > btf.MaxKind) && *errp == nil {
		*errp = fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
	}
	if id > maxTypes && *errp == nil {
		*errp = fmt.Errorf("dedup: more types than BTF allows")
	}
	d.hdr = append(d.hdr, typeHeader{nameOff, info, sizeType})
	d.words = append(d.words, ext...)
	d.extStart = append(d.extStart, uint32(len(d.words)))
	c := unprocessed
	if k == btf.KindVar || k == btf.KindDatasec {
		c = id
	}
	d.canonical = append(d.canonical, c)
	d.hypothetical = append(d.hypothetical, unprocessed)
	d.n++
	return btf.TypeID(id)
}

// RawType returns the header fields and trailing words (not a copy,
// valid until Finish and while the Stream is reachable) of type id,
// which must have been appended. A FWD's size/type word reads
// as 0.
func (s *Stream) RawType(id btf.TypeID) (nameOff, info, sizeType uint32, ext []uint32) {
	h := s.d.hdr[id]
	return h.name, h.info, h.sizeType, s.d.ext(uint32(id))
}

// EndUnit runs the primitive and struct phases over the types appended
// since the last EndUnit, which must refer only to types appended so
// far.
func (s *Stream) EndUnit() error {
	if s.err != nil {
		return s.err
	}
	d := &s.d
	from := s.checked
	if err := d.checkRefs(from); err != nil {
		s.err = err
		return err
	}
	clk := startClock(s.stats)
	if err := d.primTypesIn(from, d.n); err != nil {
		s.err = err
		return err
	}
	clk.lap(phPrim)
	if err := d.structTypesIn(from, d.n); err != nil {
		s.err = err
		return err
	}
	clk.lap(phStruct)
	s.checked = d.n
	return nil
}

// Finish ends the stream: the remaining phases run and the result is
// returned, a Spec holding the canonical types in ID order, renumbered,
// and strs as its string table, unchanged (the types' name offsets must
// be offsets in strs, equal strings at one offset). The Stream must not
// be used afterwards.
func (s *Stream) Finish(strs []byte) (*btf.Spec, error) {
	defer s.free()
	if err := s.EndUnit(); err != nil {
		return nil, err
	}
	d := &s.d
	clk := startClock(s.stats)
	s.choices = len(s.seq.decisions)
	if !s.seq.check(len(d.tab.keys)) {
		// An order worked out for too few primitive types chose
		// another candidate than Dedup would: do it Dedup's way.
		s.redone = true
		for id := uint32(1); id < d.n; id++ {
			if k := d.kind(id); k == btf.KindVar || k == btf.KindDatasec {
				d.canonical[id] = id
			} else {
				d.canonical[id] = unprocessed
			}
			d.hypothetical[id] = unprocessed
		}
		d.seq = nil
		d.tab = table{}
		if err := d.primTypes(); err != nil {
			return nil, err
		}
		if err := d.structTypes(); err != nil {
			return nil, err
		}
		clk.lap(phStruct)
	}
	d.seq = nil
	s.seq = seqIndex{}
	d.resolveFwds()
	clk.lap(phFwd)
	d.tab.reset() // reference types are compared whole: the order of their candidates does not matter
	if err := d.refTypes(); err != nil {
		return nil, err
	}
	clk.lap(phRef)
	d.tab = table{}
	out, _, err := d.compact(nil, btf.HeaderLen, nil, strs, false)
	clk.lap(phCompact)
	return out, err
}

// checkRefs checks that the types from ID from on refer only to types
// that exist (load's check). It sees every type a Stream is given, so the
// type's largest reference is found by a loop over its words
// (maxTypeRef) rather than by a call per reference.
func (d *deduper) checkRefs(from uint32) error {
	n := d.n
	for id := from; id < n; id++ {
		h := &d.hdr[id]
		if maxTypeRef(h.info, h.sizeType, d.ext(id)) < n {
			continue
		}
		var bad uint32
		btf.ForEachTypeRef(h.info, &h.sizeType, d.ext(id), func(p *uint32) {
			if *p >= n && bad == 0 {
				bad = *p
			}
		})
		return fmt.Errorf("dedup: type [%d] %s refers to type %d, past the last type %d", id, d.kind(id), bad, n-1)
	}
	return nil
}

// maxTypeRef returns the largest type ID a type refers to (the words
// btf.ForEachTypeRef visits), 0 for none.
func maxTypeRef(info, sizeType uint32, ext []uint32) uint32 {
	var m uint32
	switch k, vlen := btf.KindOf(info), btf.VlenOf(info); k {
	case btf.KindPtr, btf.KindTypedef, btf.KindVolatile, btf.KindConst, btf.KindRestrict,
		btf.KindFunc, btf.KindVar, btf.KindDeclTag, btf.KindTypeTag:
		m = sizeType
	case btf.KindArray:
		m = max(ext[0], ext[1])
	case btf.KindStruct, btf.KindUnion:
		for i := 0; i < vlen; i++ {
			m = max(m, ext[3*i+1])
		}
	case btf.KindFuncProto:
		m = sizeType
		for i := 0; i < vlen; i++ {
			m = max(m, ext[2*i+1])
		}
	case btf.KindDatasec:
		for i := 0; i < vlen; i++ {
			m = max(m, ext[3*i])
		}
	}
	return m
}
