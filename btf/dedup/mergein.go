package dedup

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
)

// mergeChunk is the number of types each stage of mergeIn hands on at a
// time.
const mergeChunk = 4096

// mergeIn reads specs (base Specs, nt types and nw trailing words in all)
// into the empty Builder b, as AddRaw of each of their types in order,
// renumbered, and String of each string reference would, and runs the
// primitive phase over them. Three stages share the work, each a chunk
// of types behind the one before: a goroutine copies the types into
// b's tables, renumbering their type references; the caller's goroutine
// interns their strings, in first-reference order as one goroutine must;
// another goroutine runs the primitive phase, which needs only the
// types before. Its error is the one a serial copy would meet first.
func (b *Builder) mergeIn(specs []*btf.Spec, nt, nw int) error {
	d := &b.d
	for _, s := range specs {
		b.noteHeader(s)
	}
	// The tables at their full length before the stages start: each
	// writes only elements, never a slice header another reads.
	d.hdr = d.hdr[:nt+1]
	d.extStart = d.extStart[:nt+2]
	d.words = d.words[:nw]
	d.canonical = d.canonical[:nt+1]
	d.hypothetical = d.hypothetical[:nt+1]
	d.n = uint32(nt) + 1
	d.tab.reserve(int(d.n))

	copied := make(chan uint32, 8) // end of the types copied so far
	quit := make(chan struct{})    // the interning stage has stopped
	var copyErr, kindErr error
	go func() {
		defer close(copied)
		copyErr, kindErr = d.copyTypes(specs, copied, quit)
	}()
	interned := make(chan uint32, 8) // end of the types interned so far
	primsDone := make(chan error, 1)
	go func() {
		var err error
		from := d.start
		for to := range interned {
			if err == nil {
				err = d.primTypesIn(from, to)
			}
			from = to
		}
		primsDone <- err
	}()
	err := b.internTypes(specs, copied, interned)
	close(interned)
	close(quit)
	for range copied { // the copier's last chunk, after quit
	}
	primErr := <-primsDone
	switch {
	case err != nil:
		return err
	case copyErr != nil:
		return copyErr
	case primErr != nil:
		return primErr
	}
	d.primsDone = d.n
	b.refsChecked = true
	if kindErr != nil && b.err == nil {
		b.err = kindErr
	}
	return nil
}

// copyTypes is mergeIn's copying stage: it copies specs' types into d's
// tables (at their full length) with their type references renumbered,
// and sends on copied the end of the types copied after each chunk and
// once at the end, until quit is closed. It returns the error of a
// reference past its spec's last type, which ends the copy before that
// type, and the first type of unknown kind (which AddRaw notes in the
// Builder).
func (d *deduper) copyTypes(specs []*btf.Spec, copied chan<- uint32, quit <-chan struct{}) (err, kindErr error) {
	id, w := uint32(1), uint32(0)
	defer func() {
		select {
		case copied <- id:
		case <-quit:
		}
	}()
	for i, s := range specs {
		first, next := uint32(s.FirstID()), uint32(s.NextID())
		idShift := id - first
		var bad error
		shiftType := func(p *uint32) {
			if *p >= first {
				if *p >= next && bad == nil {
					bad = fmt.Errorf("refers to type %d, past the last type %d", *p, next-1)
				}
				*p += idShift
			}
		}
		var st uint32 // declared once: its address escapes to ForEachTypeRef
		for sid := first; sid < next; sid++ {
			var name, info uint32
			var e []uint32
			name, info, st, e = s.RawType(btf.TypeID(sid))
			ext := d.words[w : w+uint32(len(e))]
			copy(ext, e)
			btf.ForEachTypeRef(info, &st, ext, shiftType)
			if bad != nil {
				return fmt.Errorf("dedup: merge: spec %d type [%d]: %w", i, sid, bad), kindErr
			}
			k := btf.KindOf(info)
			if k == btf.KindFwd {
				st = 0 // as load does
			}
			if (k == btf.KindUnknown || k > btf.MaxKind) && kindErr == nil {
				kindErr = fmt.Errorf("dedup: type [%d]: unknown kind %d", id, k)
			}
			d.hdr[id] = typeHeader{name, info, st}
			w += uint32(len(e))
			d.extStart[id+1] = w
			c := unprocessed
			if k == btf.KindVar || k == btf.KindDatasec {
				c = id
			}
			d.canonical[id] = c
			d.hypothetical[id] = unprocessed
			if id++; id%mergeChunk == 0 {
				select {
				case copied <- id:
				case <-quit:
					return nil, nil
				}
			}
		}
	}
	return nil, kindErr
}

// internTypes is mergeIn's interning stage: it replaces the string
// references of the types copied (as copied gives their end) by offsets
// in b's string table, interning them in order, and sends on interned
// the end of the types done after each chunk. It returns the error of a
// string offset past its spec's table, which ends it before that type.
func (b *Builder) internTypes(specs []*btf.Spec, copied <-chan uint32, interned chan<- uint32) error {
	d := &b.d
	sm := stringMap{strs: b.strs}
	var bad error
	internString := func(p *uint32) {
		if bad == nil {
			bad = sm.Map(p)
		}
	}
	id := uint32(1)
	i, end, shift := -1, uint32(1), uint32(0) // the spec of id, its end and ID shift
	for to := range copied {
		for ; id < to; id++ {
			for id >= end {
				i++
				s := specs[i]
				shift = id - uint32(s.FirstID())
				end = id + uint32(s.NumTypes())
				sm.Reset(s)
			}
			h := &d.hdr[id]
			btf.ForEachStringRef(h.info, &h.name, d.ext(id), internString)
			if bad != nil {
				return fmt.Errorf("dedup: merge: spec %d type [%d]: %w", i, id-shift, bad)
			}
		}
		interned <- to
	}
	return nil
}
