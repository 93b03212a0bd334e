package dedup

import (
	"fmt"
	"slices"

	"github.com/btfkit/btfkit/btf"
)

// staged is Dedup in two steps, for a caller that is still appending to
// its input: begin copies the types so far and runs, in the background,
// the phases over them (strings, primitive, struct, FWD resolution and
// reference types); Finish takes the types appended since, runs the
// strings and reference phases over them (and the variables phase) and
// returns what Dedup of the whole input returns, byte for byte. The
// archive route begins deduplicating the merged types while it decides
// which functions and variables to add to them.
//
// The split is exact because the types appended after begin are of kinds
// the primitive, struct and FWD phases do not look at (functions, their
// prototypes, variables, sections, declaration tags), and no earlier type
// refers to them: those phases, and the candidate index they fill, come
// out as they would over the whole input; the reference phase walks the
// types in ID order, the earlier ones first either way; and the appended
// types' strings are referenced after all the earlier types' ones. When
// an appended type is of a kind the early phases handle, Finish
// deduplicates the whole input from the start instead.
type staged struct {
	d    *deduper
	opts Options
	so   *strOrder
	done chan error
}

// begin starts deduplicating in, a base Spec (opts.Base must be nil, and
// opts.UniqueStrings set: its strings are a Merger's), whose string table
// so far is strs (in's types so far refer to no string past it; begin
// copies it). in may be appended to once begin returns; its types so far
// must not change.
func begin(in *btf.Spec, strs []byte, opts Options) (*staged, error) {
	return beginIn(nil, in, strs, opts, 0, 0)
}

// beginIn is begin in the memory of b, a Builder done with (nil: none):
// its tables, already in the process's pages, are reused where they have
// room, which includes room for about lateTypes types of lateWords
// trailing words in all to be appended before Finish. b must not be used
// afterwards; the Specs its Dedup returned stay valid.
func beginIn(b *Builder, in *btf.Spec, strs []byte, opts Options, lateTypes, lateWords int) (*staged, error) {
	if opts.Base != nil || in.Base() != nil || !opts.UniqueStrings {
		return nil, fmt.Errorf("dedup: begin takes a base Spec with unique strings and no prepared base")
	}
	var mem *deduper
	if b != nil {
		m := b.d
		mem = &m
		*b = Builder{}
	}
	d, err := loadInto(mem, in, lateTypes, lateWords)
	if err != nil {
		return nil, err
	}
	s := &staged{d: d, opts: opts, so: newStrOrder(append([]byte(nil), strs...)), done: make(chan error, 1)}
	go func() {
		err := s.so.run(d, d.start, d.n)
		if err == nil {
			err = d.primTypes()
		}
		if err == nil {
			err = d.structTypes()
		}
		if err == nil {
			if !opts.NoNameFwdResolution {
				d.resolveFwds()
			}
			err = d.refTypesIn(d.start, d.n)
		}
		s.done <- err
	}()
	return s, nil
}

// Finish deduplicates in, the Spec given to begin with the types
// appended since (and its whole string table), and returns what Dedup(in,
// opts) returns, without the Mapping.
func (s *staged) Finish(in *btf.Spec) (*btf.Spec, error) {
	if err := <-s.done; err != nil {
		return nil, err
	}
	d := s.d
	from := d.n
	// Room for the new types at once (beginIn may have made it).
	nt, nw := int(in.NextID())-int(from), max(in.NumWords()-len(d.words), 0)
	if nt > 0 {
		d.hdr = slices.Grow(d.hdr, nt)
		d.extStart = slices.Grow(d.extStart, nt)
		d.words = slices.Grow(d.words, nw)
		d.canonical = slices.Grow(d.canonical, nt)
		d.hypothetical = slices.Grow(d.hypothetical, nt)
	}
	var err error
	for id := btf.TypeID(from); id < in.NextID(); id++ {
		name, info, st, ext := in.RawType(id)
		switch btf.KindOf(info) {
		case btf.KindInt, btf.KindEnum, btf.KindEnum64, btf.KindFwd, btf.KindFloat,
			btf.KindStruct, btf.KindUnion, btf.KindTypedef:
			// The early phases would have seen it: start again.
			out, _, err := Dedup(in, s.opts)
			return out, err
		}
		d.appendRaw(&err, name, info, st, ext)
	}
	if err != nil {
		return nil, err
	}
	if err := d.checkRefs(from); err != nil {
		return nil, err
	}
	s.so.extend(in.RawStrings())
	if err := s.so.run(d, from, d.n); err != nil {
		return nil, err
	}
	if err := d.refTypesIn(from, d.n); err != nil {
		return nil, err
	}
	if !s.opts.KeepDuplicateVars {
		d.varTypes()
	}
	d.tab = table{}
	out, _, err := d.compact(nil, in.HeaderLen(), in.KindLayouts(), s.so.out, false)
	return out, err
}
