package dedup

import (
	"time"

	"github.com/btfkit/btfkit/internal/cputime"
)

// Stats is where a Dedup run spent its time, phase by phase (see doc.go
// for the phases). Each phase is timed on the goroutine that runs it:
// Wall is its elapsed time, CPU the time its thread was on a CPU, which
// a busy machine distorts less.
type Stats struct {
	Load    Phase // the input copied into the working tables
	Strings Phase // phase 1
	Prim    Phase // phase 2 (and indexing the base's types)
	Struct  Phase // phase 3
	Fwd     Phase // phase 4
	Ref     Phase // phase 5
	Var     Phase // phase 6
	Compact Phase // phase 7
}

// Phase is the time of one phase.
type Phase struct{ Wall, CPU time.Duration }

// Add adds o's times to s's.
func (s *Stats) Add(o *Stats) {
	for i, p := range o.phases() {
		q := s.phases()[i]
		q.Wall += p.Wall
		q.CPU += p.CPU
	}
}

// Total is the sum of the phases.
func (s *Stats) Total() Phase {
	var t Phase
	for _, p := range s.phases() {
		t.Wall += p.Wall
		t.CPU += p.CPU
	}
	return t
}

// Phases lists the phases with their names, in the order they run.
func (s *Stats) Phases() []NamedPhase {
	names := []string{"load", "strings", "primitive", "struct", "fwd", "reference", "var", "compact"}
	out := make([]NamedPhase, len(names))
	for i, p := range s.phases() {
		out[i] = NamedPhase{names[i], *p}
	}
	return out
}

// NamedPhase is a phase with its name, as Phases lists them.
type NamedPhase struct {
	Name string
	Phase
}

func (s *Stats) phases() []*Phase {
	return []*Phase{&s.Load, &s.Strings, &s.Prim, &s.Struct, &s.Fwd, &s.Ref, &s.Var, &s.Compact}
}

// The phases' indexes in Stats.phases.
const (
	phLoad = iota
	phStrings
	phPrim
	phStruct
	phFwd
	phRef
	phVar
	phCompact
)

// clock times consecutive phases on one goroutine; a nil *clock does
// nothing, so that runs without Stats pay one nil check a phase.
type clock struct {
	s    *Stats
	wall time.Time
	cpu  time.Duration
}

func startClock(s *Stats) *clock {
	if s == nil {
		return nil
	}
	return &clock{s: s, wall: time.Now(), cpu: cputime.Thread()}
}

// lap adds the time since the last lap (or the start) to phase ph.
func (c *clock) lap(ph int) {
	if c == nil {
		return
	}
	w, t := time.Now(), cputime.Thread()
	p := c.s.phases()[ph]
	p.Wall += w.Sub(c.wall)
	p.CPU += t - c.cpu
	c.wall, c.cpu = w, t
}
