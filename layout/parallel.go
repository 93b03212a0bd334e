package layout

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
)

// Listing the compile units of a DWARF file on many goroutines. What
// pahole prints for a unit depends on the units before it in one way:
// a named struct or union listed from an earlier unit (the same name,
// size and members: appendStructKey) is not listed again. Everything
// else is the unit's own: which of its types the filters select (filter,
// asked lazily: filterWith) and their keys, and the text of the types
// it lists, whose printing infers attributes that later types of the
// same unit see (class.go) and so depends on which of them are listed.
//
// So a Batch splits NamedUnit in three. Prepare, on any goroutine, for
// many units at once, builds the unit and lists its candidates with
// their keys. Then, one unit at a time in unit order, under the Batch's
// lock, the keys are looked up and added (decide): which candidates are
// listed is settled. Then the unit's text is printed, again on any
// goroutine, in the same order and with the same filter calls as
// printClasses makes for the types it lists; the goroutines that prepare
// units print the units decided meanwhile. Write, in unit order on one
// goroutine, writes each unit's text (printing it itself when no other
// goroutine has taken it). The bytes are printClasses' for any number of
// goroutines and any timing.
//
// Options for which this would not hold, or that print more than a unit
// should hold in memory, make a Batch hand each unit to NamedUnit in
// Write instead (parallel): -C (names are looked for in unit order and
// end the walk), --sort and --compile (they keep state across units),
// --contains_enumerator (it prints with the last layout's suffix),
// --packable, --packed and --with_embedded_flexible_array (their filter
// answers depend on inferences that printing changes), and -p and -w
// (they print gigabytes for a kernel, which must stream: flush.go).

// A Batch lists a sequence of inputs, numbered from 0 without gaps (a
// DWARF file's compile units), prepared on many goroutines.
type Batch struct {
	l        *Listing
	parallel bool

	mu      sync.Mutex
	cond    sync.Cond         // Write waits for a unit another goroutine prints
	settled map[int]*Prepared // prepared, waiting for an earlier unit
	next    int               // the next unit to decide
	queue   []*Prepared       // decided, to print, in unit order
}

// Prepared is one input of a Batch, from Prepare to Write.
type Prepared struct {
	index int
	name  string
	spec  *btf.Spec
	facts *dwarffacts.Facts

	u     *unit       // nil: nothing to list (or not parallel)
	cands []candidate // the structs and unions the filters select, in ID order
	keys  []byte      // the named candidates' keys, back to back
	state prepState   // guarded by the Batch's mu
	out   buf         // the text, once printed
}

type prepState uint8

const (
	prepSettled  prepState = iota // waiting for the units before it to be decided
	prepDecided                   // in the queue, to print
	prepPrinting                  // being printed
	prepPrinted                   // out holds its text
)

// candidate is a type that printClasses would print unless listed
// before.
type candidate struct {
	id     btf.TypeID
	keyEnd uint32 // end of its key in Prepared.keys (named types)
	named  bool   // has a name: listed once per key
	never  bool   // never found listed before (nestedBetweenMembers)
	print  bool   // decided: not listed before
}

// NewBatch starts a sequence of inputs for the listing. The listing must
// not be given other inputs until the Batch's last Write.
func (l *Listing) NewBatch() *Batch {
	b := &Batch{l: l, parallel: l.parallelOK(), settled: make(map[int]*Prepared)}
	b.cond.L = &b.mu
	return b
}

// parallelOK reports whether units can be printed apart from deciding
// which types they list (see the comment at the top of the file).
func (l *Listing) parallelOK() bool {
	o := &l.opts
	return len(o.ClassNames) == 0 && !o.Sort && !o.NrDefinitions && !o.Compile && o.ContainsEnumerator == "" &&
		!o.Packable && !o.JustPacked && !o.WithEmbeddedFlexibleArray &&
		!o.ExpandPointers && o.WordSize == 0 && !o.NrMethods && !o.FirstObjOnly
}

// Prepare readies input index (NamedUnit's name, spec and facts) and
// prints the inputs decided meanwhile. It may be called from many
// goroutines at once, each input once, in any order; every input from 0
// up must be prepared for the later ones to be written.
func (b *Batch) Prepare(index int, name string, spec *btf.Spec, facts *dwarffacts.Facts) *Prepared {
	p := &Prepared{index: index, name: name, spec: spec, facts: facts}
	if !b.parallel {
		return p
	}
	if !b.l.unitExcluded(name) {
		b.l.candidates(p)
	}
	b.settle(p)
	b.printQueued()
	return p
}

// Write writes p's text to w; call it in input order, on one goroutine.
// It reports what NamedUnit does: whether every -C name was found.
func (b *Batch) Write(w io.Writer, p *Prepared) (stop bool, err error) {
	if !b.parallel {
		return b.l.NamedUnit(w, p.name, p.spec, p.facts)
	}
	b.mu.Lock()
	for p.state != prepPrinted {
		switch p.state {
		case prepSettled:
			b.mu.Unlock()
			return false, fmt.Errorf("layout: input %d written before input %d was prepared", p.index, b.next)
		case prepDecided:
			// Nobody took it yet: take it out of the queue (it is
			// first there: the units before it were written).
			for i, q := range b.queue {
				if q == p {
					b.queue = append(b.queue[:i:i], b.queue[i+1:]...)
					break
				}
			}
			p.state = prepPrinting
			b.mu.Unlock()
			b.l.printPrepared(p)
			b.mu.Lock()
			p.state = prepPrinted
		case prepPrinting:
			b.cond.Wait()
		}
	}
	b.mu.Unlock()
	_, err = w.Write(p.out)
	p.out = nil
	return false, err
}

// settle hands p over for deciding, and decides every unit whose turn
// has come.
func (b *Batch) settle(p *Prepared) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settled[p.index] = p
	for {
		q, ok := b.settled[b.next]
		if !ok {
			return
		}
		delete(b.settled, b.next)
		b.next++
		b.l.decide(q)
		q.state = prepDecided
		b.queue = append(b.queue, q)
	}
}

// printQueued prints the decided units nobody has taken yet.
func (b *Batch) printQueued() {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.mu.Unlock()
			return
		}
		q := b.queue[0]
		b.queue = b.queue[1:]
		q.state = prepPrinting
		b.mu.Unlock()
		b.l.printPrepared(q)
		b.mu.Lock()
		q.state = prepPrinted
		b.cond.Broadcast()
		b.mu.Unlock()
	}
}

// candidates is printClasses up to the lookup of the key: the structs
// and unions of p's unit the filters select, and the keys of the named
// ones.
func (l *Listing) candidates(p *Prepared) {
	u := newUnit(p.spec, p.facts, l.cacheline)
	l.prepare(u, p.name) // print_options.go
	p.u = u
	for id := btf.TypeID(1); id < u.spec.NextID(); id++ {
		t := u.spec.Type(id)
		if !l.listed(u, id, t, true) {
			continue
		}
		c := candidate{id: id}
		if t.NameOff() != 0 {
			p.keys = appendStructKey(p.keys, u, t)
			c.named, c.keyEnd = true, uint32(len(p.keys))
			c.never = u.nestedBetweenMembers(id, t)
		}
		p.cands = append(p.cands, c)
	}
}

// decide is printClasses' lookup and adding of the keys (add, without
// --sort), for a whole unit: which candidates are printed.
func (l *Listing) decide(p *Prepared) {
	start := uint32(0)
	for i := range p.cands {
		c := &p.cands[i]
		if !c.named {
			c.print = true
			continue
		}
		key := p.keys[start:c.keyEnd]
		start = c.keyEnd
		s := &l.structs
		if i, dup := s.seen[string(key)]; dup && !c.never {
			s.defs[i].n++
		} else {
			if !dup {
				s.seen[string(key)] = len(s.defs)
			}
			name, _, _ := bytes.Cut(key, []byte{0}) // appendStructKey's name
			s.defs = append(s.defs, definition{string(name), 1})
			c.print = true
		}
	}
	p.keys = nil
}

// printPrepared is the rest of printClasses: the text of the candidates
// decided for printing, each after the filter call printClasses makes
// (candidates asked lazily; what filter finds on the way is then found
// in the same order as printClasses finds it before printing).
func (l *Listing) printPrepared(p *Prepared) {
	u := p.u
	if u != nil {
		for _, c := range p.cands {
			if !c.print {
				continue
			}
			l.filter(u, c.id, u.spec.Type(c.id))
			l.formatType(u, &p.out, c.id)
		}
	}
	p.u, p.cands, p.spec, p.facts = nil, nil, nil, nil
}
