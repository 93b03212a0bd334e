package dwarf

import (
	godwarf "debug/dwarf"
	"debug/elf"
	"hash/maphash"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// cpuTime is the CPU time (user + system, all threads) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fullWalk decodes every DIE of the unit r is on and touches every
// attribute value: strings are resolved, blocks sliced. It is the work
// debug/dwarf's Reader does for each entry.
func fullWalk(r *UnitReader) (int, error) {
	d := r.Data()
	var e Entry
	n := 0
	for {
		ok, err := r.Next(&e)
		if err != nil || !ok {
			return n, err
		}
		for i := range e.Fields {
			f := &e.Fields[i]
			if f.Class == ClassString {
				s, err := d.String(f)
				if err != nil {
					return n, err
				}
				n += len(s)
			} else if f.Len != 0 {
				n += len(d.Bytes(f))
			} else {
				n += int(f.Val & 1)
			}
		}
	}
}

// resetDecls empties the process-wide declaration cache, so that a walk
// measured after another parses every abbreviation table as a first walk
// in a new process does.
func resetDecls() { decls = &declCache{seed: maphash.MakeSeed()} }

func loadSections(b *testing.B, path string) Sections {
	b.Helper()
	d, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	return d.sec
}

// BenchmarkWalk compares a full walk of the Debian vmlinux DWARF (every
// attribute decoded, strings resolved) by this package with 1 and 2
// workers against Go's debug/dwarf. Unit indexing and abbreviation parsing
// are part of each iteration for both; reading the sections is not (both
// read from memory: a mapping here, heap copies for debug/dwarf). Besides
// ns/op it reports cpu-ns/op, the process CPU time (all threads, GC
// included), which is steadier than wall time on a busy machine.
// scripts/bench-dwarf runs it and prints the ratios.
func BenchmarkWalk(b *testing.B) {
	vmlinux, _ := testenv.KernelInputs(b)
	s := loadSections(b, vmlinux)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "btfkit-j1", 2: "btfkit-j2"}[workers], func(b *testing.B) {
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op") }()
			for i := 0; i < b.N; i++ {
				resetDecls() // every walk starts cold, as in a new process
				d, err := New(s)
				if err != nil {
					b.Fatal(err)
				}
				total := 0
				err = Walk(d, workers, fullWalk, func(_ *Unit, n int) error { total += n; return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("debug-dwarf", func(b *testing.B) {
		f, err := elf.Open(vmlinux)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		sec := func(name string) []byte {
			s := f.Section(name)
			if s == nil {
				return nil
			}
			data, err := s.Data()
			if err != nil {
				b.Fatal(err)
			}
			return data
		}
		info, abbrev, str := sec(".debug_info"), sec(".debug_abbrev"), sec(".debug_str")
		extra := map[string][]byte{}
		for _, n := range []string{".debug_line_str", ".debug_str_offsets", ".debug_addr", ".debug_rnglists", ".debug_loclists"} {
			extra[n] = sec(n)
		}
		runtime.GC()
		b.ReportAllocs()
		b.ResetTimer()
		c0 := cpuTime()
		defer func() { b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op") }()
		for i := 0; i < b.N; i++ {
			d, err := godwarf.New(abbrev, nil, nil, info, nil, nil, nil, str)
			if err != nil {
				b.Fatal(err)
			}
			for n, data := range extra {
				if err := d.AddSection(n, data); err != nil {
					b.Fatal(err)
				}
			}
			r := d.Reader()
			for {
				e, err := r.Next()
				if err != nil {
					b.Fatal(err)
				}
				if e == nil {
					break
				}
			}
		}
	})
}

// BenchmarkOpenUsesForm is what a reader pays before the first unit of
// the Debian vmlinux when it asks every unit whether it uses
// DW_FORM_ref_addr (encode's merged-units check, before a -C lookup):
// the unit headers read from the file (FromELF) and every unit's
// abbreviation table scanned.
func BenchmarkOpenUsesForm(b *testing.B) {
	vmlinux, _ := testenv.KernelInputs(b)
	for i := 0; i < b.N; i++ {
		d, err := Open(vmlinux)
		if err != nil {
			b.Fatal(err)
		}
		for j := range d.Units() {
			if _, err := d.UsesForm(&d.Units()[j], FormRefAddr); err != nil {
				b.Fatal(err)
			}
		}
		d.Close()
	}
}
