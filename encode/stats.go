package encode

import (
	"runtime"
	"sync"
	"time"

	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/internal/cputime"
)

// Stats is where an encoding spent its time, stage by stage
// (Options.Stats; btfkit encode --stats prints it). Each stage has its
// elapsed time (Wall) and the CPU time of the threads that ran it (CPU),
// which a machine busy with other work distorts far less. The stages
// that run on the workers (Walk, Convert) are summed over them; Merge
// runs on the calling goroutine while the workers convert the next
// units, so Walk+Convert+Merge overlap in WalkWall.
type Stats struct {
	Open    Stage // ELF file, symbols, DWARF sections, unit index
	Walk    Stage // reading the entries and recording the types (workers)
	Convert Stage // records to BTF fragments, function candidates (workers)
	Merge   Stage // fragments appended in unit order (calling goroutine)
	Funcs   Stage // functions and variables decided, FUNC/DATASEC added
	Dedup   Stage // deduplication (DedupPhases has its phases)
	Finish  Stage // string table order, kind layouts

	WalkWall time.Duration // from the first unit handed out to the last merged
	Workers  int           // units converted at once
	Units    int           // units walked
	Types    int           // types of all fragments, before deduplication
	Out      int           // types after deduplication

	DedupPhases dedup.Stats

	mu sync.Mutex
}

// Stage is the time one stage took.
type Stage struct{ Wall, CPU time.Duration }

// Add adds o to s (a batch sums its modules' stats).
func (s *Stats) Add(o *Stats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, st := range o.Stages() {
		p := s.stages()[i]
		p.Wall += st.Wall
		p.CPU += st.CPU
	}
	s.WalkWall += o.WalkWall
	s.Workers = max(s.Workers, o.Workers)
	s.Units += o.Units
	s.Types += o.Types
	s.Out += o.Out
	s.DedupPhases.Add(&o.DedupPhases)
}

// dedupInMerge is the time of the deduplication phases a dedup.Stream
// runs while the merge appends a unit.
func (s *Stats) dedupInMerge() dedup.Phase {
	p := s.DedupPhases
	return dedup.Phase{Wall: p.Prim.Wall + p.Struct.Wall, CPU: p.Prim.CPU + p.Struct.CPU}
}

// moveToDedup moves the deduplication a merge step did (the growth of
// dedupInMerge since before) from the merge's time to the dedup's.
func (s *Stats) moveToDedup(before dedup.Phase) {
	now := s.dedupInMerge()
	w, c := now.Wall-before.Wall, now.CPU-before.CPU
	s.Merge.Wall -= w
	s.Merge.CPU -= c
	s.Dedup.Wall += w
	s.Dedup.CPU += c
}

// NamedStage is a stage with its name, as Stages lists them.
type NamedStage struct {
	Name string
	Stage
}

// Stages lists the stages in the order they run, with their names.
func (s *Stats) Stages() []NamedStage {
	names := []string{"open", "walk", "convert", "merge", "funcs", "dedup", "finish"}
	out := make([]NamedStage, len(names))
	for i, p := range s.stages() {
		out[i] = NamedStage{names[i], *p}
	}
	return out
}

func (s *Stats) stages() []*Stage {
	return []*Stage{&s.Open, &s.Walk, &s.Convert, &s.Merge, &s.Funcs, &s.Dedup, &s.Finish}
}

// stageClock times consecutive stages on one goroutine, which it locks
// to its thread so that the thread's CPU time is the goroutine's. A nil
// *stageClock does nothing.
type stageClock struct {
	wall time.Time
	cpu  time.Duration
}

func newStageClock(on bool) *stageClock {
	if !on {
		return nil
	}
	runtime.LockOSThread()
	return &stageClock{wall: time.Now(), cpu: cputime.Thread()}
}

// lap adds the time since the last lap (or the start) to st.
func (c *stageClock) lap(st *Stage) {
	if c == nil {
		return
	}
	w, t := time.Now(), cputime.Thread()
	st.Wall += w.Sub(c.wall)
	st.CPU += t - c.cpu
	c.wall, c.cpu = w, t
}

// skip starts the next lap now, leaving out the time since the last.
func (c *stageClock) skip() {
	if c == nil {
		return
	}
	c.wall, c.cpu = time.Now(), cputime.Thread()
}

// stop unlocks the goroutine from its thread.
func (c *stageClock) stop() {
	if c != nil {
		runtime.UnlockOSThread()
	}
}
