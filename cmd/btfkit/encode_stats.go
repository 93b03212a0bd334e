package main

// btfkit encode --stats: where the time went, stage by stage.

import (
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/cputime"
)

func init() {
	encodeCmd.Flags().BoolVar(&encodeOpts.stats, "stats", false, "print to stderr the time of each stage (open, walk, convert, merge, funcs, dedup and its phases, finish, write), elapsed and CPU, and the peak memory")
}

// encodeStats collects what --stats prints: the encoder's stages, the
// write and the whole command.
type encodeStats struct {
	encode.Stats
	Write        encode.Stage
	wall0        time.Time
	cpu0         time.Duration
	modules      int
	written, out int
}

// newEncodeStats returns nil without --stats.
func newEncodeStats() *encodeStats {
	if !encodeOpts.stats {
		return nil
	}
	return &encodeStats{wall0: time.Now(), cpu0: cputime.Process()}
}

// encoderStats is what encode.Options.Stats gets: nil without --stats.
func (s *encodeStats) encoderStats() *encode.Stats {
	if s == nil {
		return nil
	}
	return &s.Stats
}

// timeWrite runs write and adds its time to the write stage.
func (s *encodeStats) timeWrite(write func() error) error {
	if s == nil {
		return write()
	}
	w0, c0 := time.Now(), cputime.Process()
	err := write()
	s.Write.Wall += time.Since(w0)
	s.Write.CPU += cputime.Process() - c0
	return err
}

// print writes the table: one line per stage, then the dedup phases, then
// the whole command (elapsed, CPU of all threads, peak RSS).
func (s *encodeStats) print(w io.Writer) {
	if s == nil {
		return
	}
	wall, cpu := time.Since(s.wall0), cputime.Process()-s.cpu0
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
	line := func(name, wall, cpu, note string) {
		fmt.Fprintf(w, "%-12s %10s %10s  %s\n", name, wall, cpu, note)
	}
	line("stage", "wall ms", "CPU ms", "")
	note := map[string]string{
		"walk":    fmt.Sprintf("summed over %d workers", s.Workers),
		"convert": "summed over the workers",
		"merge":   "in unit order, beside the workers",
	}
	for _, st := range s.Stages() {
		line(st.Name, ms(st.Wall), ms(st.CPU), note[st.Name])
		if st.Name == "dedup" {
			for _, ph := range s.DedupPhases.Phases() {
				line("  "+ph.Name, ms(ph.Wall), ms(ph.CPU), "")
			}
		}
	}
	line("write", ms(s.Write.Wall), ms(s.Write.CPU), "")
	line("walk+merge", ms(s.WalkWall), "", fmt.Sprintf("elapsed, %d units", s.Units))
	line("total", ms(wall), ms(cpu), "all threads, garbage collection included")
	what := fmt.Sprintf("%d types in, %d out", s.Types, s.Out)
	if s.modules > 0 {
		what = count(s.modules, "module") + ", " + what
	}
	fmt.Fprintf(w, "%s; peak RSS %.1f MiB\n", what, float64(peakRSS())/(1<<20))
}

// peakRSS is the process's peak resident set size in bytes.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}
