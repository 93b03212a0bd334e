package main

// btfkit encode --base / --out-dir / --in-place: split BTF for kernel
// modules, many modules in one process, and BTF written into the input
// file. The flags are registered on the encode command here; encode.go
// hands over to runEncodeModules when any of them is set.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/kmod"
)

var encodeModOpts struct {
	base    string
	outDir  string
	inPlace bool
}

func init() {
	f := encodeCmd.Flags()
	f.StringVar(&encodeModOpts.base, "base", "", "make split BTF against the base BTF in `FILE` (raw BTF, an ELF with .BTF, /sys/kernel/btf/vmlinux)")
	f.StringVar(&encodeModOpts.outDir, "out-dir", "", "encode every INPUT (module files, directories searched for *.ko[.xz|.zst|.gz]) to `DIR`/NAME.btf")
	f.BoolVar(&encodeModOpts.inPlace, "in-place", false, "write the BTF into each input file as its .BTF section (and .BTF.base with --features=+distilled_base and --base)")
	encodeCmd.Use = "encode [-j N] [--features LIST] [--base BASE] (-o OUT FILE | --out-dir DIR INPUT... | --in-place FILE...)"
	encodeCmd.Example += `
  btfkit encode --base vmlinux -o xfs.btf xfs.ko
  btfkit encode --base vmlinux.btf --out-dir btf/ /usr/lib/debug/lib/modules/$(uname -r)
  btfkit encode --base vmlinux --features=+distilled_base --in-place mymod.ko`
	encodeCmd.Long += `

Kernel modules. --base BASE makes split BTF, as 'pahole -J --btf_base BASE'
does: types equal to types of BASE are not repeated but refer to BASE's IDs.
--out-dir DIR encodes many inputs in one process (the base is read once),
-j modules at a time, each to DIR/NAME.btf (NAME: the file name without
.ko[.xz|.zst|.gz]); each output is what a run on that module alone writes.
An INPUT may be a directory, searched for modules; compressed modules are
decompressed in memory. A progress bar (modules done of all, the rate,
the time left) is shown when standard error is a terminal and -q is not
given; a summary is printed at the end, unless -q. When modules fail,
the others are still written, each failure is named, and the exit status
is 1. --in-place writes the BTF into each input as its .BTF section instead
(pahole -J without --btf_encode_detached), through a temporary file: on
any error the input is left as it was. With --features=+distilled_base and
--base it also writes .BTF.base, the distilled base that lets the module's
BTF be relocated onto another build of the base, and .BTF is split against
it (pahole's distilled_base); other outputs ignore distilled_base, as
pahole's detached output does.`
}

// encodeModulesMode reports whether the command line asks for what
// runEncodeModules does.
func encodeModulesMode() bool {
	return encodeModOpts.base != "" || encodeModOpts.outDir != "" || encodeModOpts.inPlace
}

// checkEncodeModulesArgs validates the flag combination of the modules mode.
func checkEncodeModulesArgs(args []string) error {
	o := encodeModOpts
	switch {
	case o.outDir != "" && o.inPlace:
		return fmt.Errorf("--out-dir and --in-place exclude each other")
	case encodeOpts.out != "" && (o.outDir != "" || o.inPlace):
		return fmt.Errorf("-o writes one file; with --out-dir or --in-place leave it out")
	case o.outDir == "" && !o.inPlace && encodeOpts.out == "":
		return fmt.Errorf(`required flag(s) "output" not set (or use --out-dir or --in-place)`)
	case len(args) == 0:
		return fmt.Errorf("no input files")
	case encodeOpts.out != "" && len(args) != 1:
		return fmt.Errorf("-o takes one input file, got %d (use --out-dir for many)", len(args))
	}
	return nil
}

// runEncodeModules runs encode with --base, --out-dir or --in-place.
func runEncodeModules(args []string, stdout, stderr io.Writer) error {
	wall0, cpu0 := time.Now(), cpuTime()
	feat, langs, err := encodeFlags()
	if err != nil {
		return err
	}
	var base *dedup.Base
	if encodeModOpts.base != "" {
		if base, err = encode.LoadBase(encodeModOpts.base); err != nil {
			return fmt.Errorf("--base: %w", err)
		}
	}
	stats := newEncodeStats()
	opts := encode.Options{Features: feat, Jobs: encodeOpts.jobs, LangExclude: langs, Stats: stats.encoderStats()}

	// One file to -o: no batch machinery.
	if encodeOpts.out != "" {
		prog := unitProgress(stderr)
		opts.Progress = prog.units
		spec, err := encode.EncodeSplit(args[0], base, opts)
		prog.done()
		if errors.Is(err, encode.ErrExcluded) {
			fmt.Fprintf(stderr, "btfkit encode: %v; %s not written\n", err, encodeOpts.out)
			return nil
		}
		if err != nil {
			return err
		}
		if spec, err = encodeFinalize(spec, args[0], stderr); err != nil { // encode_finalize.go
			return err
		}
		err = stats.timeWrite(func() error { return writeOutput(encodeOpts.out, spec.Marshal(nil)) })
		stats.print(stderr)
		return err
	}

	var mods []kmod.Module
	if encodeModOpts.inPlace {
		// In place: the files named, nothing found by searching.
		for _, a := range args {
			if st, err := os.Stat(a); err != nil {
				return err
			} else if st.IsDir() {
				return fmt.Errorf("%s: --in-place takes files, not directories", a)
			}
			if kmod.IsCompressed(a) {
				return fmt.Errorf("%s: --in-place cannot write into a compressed module", a)
			}
			mods = append(mods, kmod.Module{Path: a, Name: kmod.Name(a)})
		}
	} else {
		if mods, err = kmod.Find(args); err != nil {
			return err
		}
		if err := os.MkdirAll(encodeModOpts.outDir, 0o755); err != nil {
			return err
		}
	}

	// The collector keeps its default pace (GOGC=100): the peak heap is
	// twice the live one (the base, and the largest modules, which go
	// first). GOGC=200 saved CPU while each module made its tables,
	// fragments and checker arrays anew (~2 GB of garbage over 1,121
	// modules); reused, they leave fewer collections at 100 than there
	// were at 200, and 250 MiB peak instead of 430.
	distilled := encodeModOpts.inPlace && base != nil && feat.Has(encode.FeatDistilledBase)
	prog := newProgress(stderr, len(mods), "modules", encodeOpts.quiet)
	var mu sync.Mutex
	var failures []string
	types := 0
	excluded := 0
	write := func(r encode.BatchResult) error {
		err := r.Err
		if errors.Is(err, encode.ErrExcluded) {
			// Nothing to encode, nothing written (as pahole).
			mu.Lock()
			defer mu.Unlock()
			excluded++
			prog.step()
			return nil
		}
		if err == nil {
			w0 := time.Now()
			if encodeModOpts.inPlace {
				err = writeInPlace(r.Module.Path, r.Spec, distilled)
			} else {
				err = writeOutput(filepath.Join(encodeModOpts.outDir, r.Module.Name+".btf"), r.Spec.Marshal(nil))
			}
			if stats != nil {
				// Modules are written on several threads at once: the
				// elapsed time of each, summed, is the write's share.
				d := time.Since(w0)
				mu.Lock()
				stats.Write.Wall += d
				mu.Unlock()
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failures = append(failures, r.Module.Name)
			prog.message(fmt.Sprintf("btfkit encode: %v", err))
		} else {
			types += r.Spec.NumTypes()
		}
		prog.step()
		return err
	}
	failed := encode.EncodeBatch(mods, base, encode.BatchOptions{Options: opts, Jobs: encodeOpts.jobs}, write)
	prog.done()

	wall, cpu := time.Since(wall0), cpuTime()-cpu0
	if !encodeOpts.quiet {
		fmt.Fprintf(stderr, "btfkit encode: %s, %d written, %d failed, %s; %.2f s wall, %.2f s CPU\n",
			count(len(mods), "module"), len(mods)-failed-excluded, failed, count(types, "type"), wall.Seconds(), cpu.Seconds())
		if excluded > 0 {
			fmt.Fprintf(stderr, "btfkit encode: %s not written: every unit of an excluded language\n", count(excluded, "module"))
		}
	}
	if stats != nil {
		stats.modules = len(mods)
		stats.print(stderr)
	}
	if failed > 0 {
		sort.Strings(failures)
		return fmt.Errorf("%d of %s failed: %s", failed, count(len(mods), "module"), strings.Join(failures, " "))
	}
	return nil
}

// writeInPlace writes spec into the ELF file at path as its .BTF section;
// with distilled, spec (split BTF) is distilled first and .BTF.base is
// written too. Both sections are written into a copy that replaces path
// only when everything worked, so on any error path is left as it was.
func writeInPlace(path string, spec *btf.Spec, distilled bool, extra ...elfx.Section) error {
	if !distilled {
		return writeSections(path, append([]elfx.Section{{Name: ".BTF", Data: spec.Marshal(nil)}}, extra...))
	}
	dbase, dsplit, err := distill.Distill(spec)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeSections(path, append([]elfx.Section{
		{Name: ".BTF", Data: dsplit.Marshal(nil)},
		{Name: ".BTF.base", Data: dbase.Marshal(nil)},
	}, extra...))
}

// inPlaceHook, when set (tests), runs after the sections are written into
// the temporary copy and before it replaces the original; an error it
// returns is a failure like any other.
var inPlaceHook func(tmp string) error

// writeSections sets sections of the ELF file at path (elfx.WriteSections:
// one temporary copy, one rename). Before the copy replaces path, the
// reader (elfx, over debug/elf) must read every section back as written.
func writeSections(path string, secs []elfx.Section) error {
	return elfx.WriteSections(path, secs, func(tmp string) error {
		f, err := elfx.Open(tmp)
		if err != nil {
			return fmt.Errorf("the written file does not read back: %w", err)
		}
		defer f.Close()
		for _, s := range secs {
			got, err := f.SectionData(s.Name)
			if err != nil || !bytes.Equal(got, s.Data) {
				return fmt.Errorf("section %s does not read back as written (%d bytes, want %d; %v)", s.Name, len(got), len(s.Data), err)
			}
		}
		if inPlaceHook != nil {
			return inPlaceHook(tmp)
		}
		return nil
	})
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// count is n and the noun, in the plural unless n is 1 ("1 module",
// "1,121 modules" without the comma).
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
