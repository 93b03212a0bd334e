package encode

import (
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/kmod"
)

// BenchmarkBatchModules encodes every module of the Debian package
// against the vmlinux's .BTF in one batch, as `btfkit encode --base
// --out-dir` does (without writing the outputs): the per-module cost of a
// batch, for profiling (-cpuprofile). -short takes 100 modules.
func BenchmarkBatchModules(b *testing.B) {
	n := 1 << 30
	if testing.Short() {
		n = 100
	}
	mods := splitSubset(b, n)
	base, err := LoadBase(reference(b, "embedded.btf"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		failed := EncodeBatch(mods, base, BatchOptions{Options: Options{Features: DefaultFeatures}, Jobs: 1}, func(r BatchResult) error {
			if r.Err != nil {
				b.Error(r.Err)
			}
			return nil
		})
		if failed > 0 {
			b.Fatalf("%d modules failed", failed)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(mods)), "ms/module")
	b.ReportMetric(float64(cpu.stop().Milliseconds())/float64(b.N*len(mods)), "cpu-ms/module")
}

// BenchmarkModuleOne encodes one module against the prepared base again
// and again: a batch's fixed cost per module, without the others.
// BTFKIT_BENCH_MODULE names the module (default: a median-sized one).
func BenchmarkModuleOne(b *testing.B) {
	name := os.Getenv("BTFKIT_BENCH_MODULE")
	if name == "" {
		name = "xt_MASQUERADE"
	}
	mods, err := kmod.Find([]string{splitModulesDir(b)})
	if err != nil {
		b.Fatal(err)
	}
	var mod kmod.Module
	for _, m := range mods {
		if m.Name == name {
			mod = m
		}
	}
	if mod.Path == "" {
		b.Fatalf("no module %s", name)
	}
	base, err := LoadBase(reference(b, "embedded.btf"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := EncodeSplit(mod.Path, base, Options{Features: DefaultFeatures, Jobs: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSplitOntoModules deduplicates 100 modules' merged fragments
// (encoded once, before timing) onto the prepared base, as EncodeSplit
// does: the dedup share of a batch alone.
func BenchmarkSplitOntoModules(b *testing.B) {
	mods := splitSubset(b, 100)
	base, err := LoadBase(reference(b, "embedded.btf"))
	if err != nil {
		b.Fatal(err)
	}
	var merged []*btf.Spec
	for _, m := range mods {
		s, err := EncodeFile(m.Path, Options{Features: DefaultFeatures, NoDedup: true})
		if err != nil {
			b.Fatal(err)
		}
		merged = append(merged, s)
	}
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		for _, s := range merged {
			if _, _, err := dedup.Dedup(s, dedup.Options{KeepDuplicateVars: true, Base: base}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(merged)), "µs/module")
	b.ReportMetric(float64(cpu.stop().Microseconds())/float64(b.N*len(merged)), "cpu-µs/module")
}

// cpuClock measures the process's CPU time (user and system, all threads,
// the garbage collector's included): on a shared machine a steadier figure
// than wall time.
type cpuClock struct{ t0 time.Duration }

func startCPU() cpuClock { return cpuClock{processCPU()} }

func (c cpuClock) stop() time.Duration { return processCPU() - c.t0 }

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMergeModules merges the fragments of 100 modules (converted
// and copied before timing, without their functions and variables), one
// merger per module as in a batch: the merge's string interning and type
// renumbering alone.
func BenchmarkMergeModules(b *testing.B) {
	mods := splitSubset(b, 100)
	var frags [][]*fragment
	for _, m := range mods {
		var fs []*fragment
		ef, err := elfx.Open(m.Path)
		if err != nil {
			b.Fatal(err)
		}
		err = walk(ef, walkConfig{Options: Options{Features: DefaultFeatures, Jobs: 1}}, func(f *fragment) error {
			c := &fragment{hdrs: slices.Clone(f.hdrs), words: slices.Clone(f.words)}
			for _, s := range f.strs {
				c.strs = append(c.strs, strings.Clone(s))
			}
			fs = append(fs, c)
			return nil
		}, nil)
		ef.Close()
		if err != nil {
			b.Fatal(err)
		}
		frags = append(frags, fs)
	}
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		for _, fs := range frags {
			m := newMerger()
			n := 0
			for _, f := range fs {
				n += len(f.strs)
			}
			m.reserve(0, 0, n/3)
			for _, f := range fs {
				if err := m.add(f); err != nil {
					b.Fatal(err)
				}
			}
			m.finish()
		}
	}
	b.ReportMetric(float64(cpu.stop().Microseconds())/float64(b.N*len(frags)), "cpu-µs/module")
}
