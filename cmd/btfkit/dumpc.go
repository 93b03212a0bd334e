package main

// btfkit dump --format c: a C header (vmlinux.h) from BTF, byte-identical to
// 'bpftool btf dump file F format c' (bpftool 7.1), written with -o only
// when its bytes change.
//
// The C format needs the whole command, not one Dump call per Spec: one
// header covers every input (a base and its modules), and -o decides
// whether to write at all. So besides registering "c" in dumpFormats (for
// --help and for callers of the registry), this file wraps dumpCmd's RunE
// and takes over when --format c is chosen.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/cdump"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

var dumpCOpts struct {
	output      string
	changedExit int
	fixLayout   bool
}

func init() {
	registerDumpFormat("c", dumpFormat{
		Help: "C header (vmlinux.h), byte-identical to 'bpftool btf dump file F format c' (7.1);\n" +
			"         all inputs make one header; -o FILE rewrites FILE only when it changes",
		Heading: func(label string) string { return "/* " + label + " */\n" },
		Dump: func(w io.Writer, s *btf.Spec) error {
			return cdump.Write(w, s, cdump.Options{})
		},
	})
	f := dumpCmd.Flags()
	f.StringVarP(&dumpCOpts.output, "output", "o", "",
		"with --format c: write the header to `FILE`, leaving FILE untouched (bytes and mtime) when\n"+
			"it already holds the same header; otherwise write a temporary file and rename it (- for standard output)")
	f.IntVar(&dumpCOpts.changedExit, "changed-exit-code", 0,
		"with -o: exit with this `status` when FILE was (re)written, 0 when it was left alone\n"+
			"(default 0: success either way); errors exit 1")
	f.BoolVar(&dumpCOpts.fixLayout, "fix-layout", false,
		"with --format c: print correct C where bpftool 7.1 is wrong (mode(byte)/mode(word) on 1- and\n"+
			"8-byte enums, _Complex types, aligned(N) on over-aligned unions); output then differs from bpftool's")
	dumpCmd.Example += `

  # vmlinux.h for CO-RE programs, rewritten only when the kernel's BTF changed
  btfkit dump --format c -o vmlinux.h /sys/kernel/btf/vmlinux

  # One header for vmlinux and two modules (split BTF against it)
  btfkit dump --format c --base vmlinux -o vmlinux.h xfs.ko btrfs.ko

  # In a script: exit status 3 tells that the header changed
  btfkit dump --format c -o vmlinux.h --changed-exit-code 3 /sys/kernel/btf/vmlinux`

	prev := dumpCmd.RunE
	dumpCmd.RunE = func(cmd *cobra.Command, args []string) error {
		if dumpOpts.format == "c" {
			return runDumpC(args)
		}
		// -o - is standard output, where every format writes anyway.
		if (dumpCOpts.output != "" && dumpCOpts.output != "-") || dumpCOpts.fixLayout || cmd.Flags().Changed("changed-exit-code") {
			return errors.New("-o FILE, --changed-exit-code and --fix-layout work with --format c only")
		}
		return prev(cmd, args)
	}
}

func runDumpC(args []string) error {
	// One short pass over a few tens of MB that all stay live to the end:
	// collecting garbage only costs time. A memory limit still bounds it.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(2 << 30)

	spec, ptrSz, err := loadCInputs(dumpOpts.base, args)
	if err != nil {
		return err
	}
	opts := cdump.Options{PointerSize: ptrSz, FixLayout: dumpCOpts.fixLayout}
	// The inputs' types are one Spec: an error (a type cycle C cannot
	// express) names them all.
	naming := func(err error) error {
		if err == nil || len(args) == 0 {
			return err
		}
		return fmt.Errorf("%s: %w", strings.Join(args, ", "), err)
	}
	if dumpCOpts.output == "" || dumpCOpts.output == "-" {
		return naming(cdump.Write(os.Stdout, spec, opts)) // writes in large chunks
	}
	hdr, err := cdump.Bytes(spec, opts)
	if err != nil {
		return naming(err)
	}
	changed, err := cdump.UpdateFile(dumpCOpts.output, hdr, 0o644)
	if err != nil {
		return err
	}
	if changed && dumpCOpts.changedExit != 0 {
		return exitError{dumpCOpts.changedExit}
	}
	return nil
}

// loadCInputs loads the inputs of a C dump as one Spec: the single input
// (split against base when given), or for several inputs their own types
// combined over a common base and deduplicated. The base is --base, or the running kernel's
// /sys/kernel/btf/vmlinux when an input is a /sys/kernel/btf module; an
// input that is the base itself is skipped. It also returns the pointer
// size the first input's ELF class says (0 for raw BTF: guess).
func loadCInputs(basePath string, args []string) (*btf.Spec, int, error) {
	ptrSz := input.PointerSize(args[0])
	if ptrSz == 0 && basePath != "" {
		ptrSz = input.PointerSize(basePath)
	}
	if len(args) == 1 {
		var base *btf.Spec
		if basePath != "" {
			b, err := input.Load(basePath, nil)
			if err != nil {
				return nil, 0, fmt.Errorf("base: %w", err)
			}
			base = b
		}
		if base == nil && ptrSz == 0 {
			if s, ok := parseMapped(args[0]); ok {
				return s, ptrSz, nil
			}
		}
		s, err := input.Load(args[0], base)
		return s, ptrSz, err
	}

	sysVmlinux := filepath.Join(btf.SysfsDir, "vmlinux")
	if basePath == "" {
		for _, a := range args {
			if btf.IsSysfsModule(a) {
				basePath = sysVmlinux
				break
			}
		}
	}
	if basePath == "" {
		return nil, 0, errors.New("several inputs make one header of a base and its split BTFs: give the base with --base FILE (or use /sys/kernel/btf paths)")
	}
	base, err := input.Load(basePath, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("base: %w", err)
	}
	var splits []*btf.Spec
	for _, a := range args {
		if samePath(a, basePath) {
			continue
		}
		s, err := input.Load(a, base)
		if err != nil {
			return nil, 0, err
		}
		splits = append(splits, s)
	}
	if len(splits) == 0 {
		return base, ptrSz, nil
	}
	s, err := cdump.Combine(base, splits...)
	if err != nil || len(splits) == 1 {
		return s, ptrSz, err
	}
	// Types several modules define (each module's BTF is deduplicated only
	// against vmlinux) are merged, as newer bpftool does with btf__dedup,
	// so the header declares each once. As in libbpf, VARs stay as they are.
	d, _, err := dedup.Dedup(s, dedup.Options{KeepDuplicateVars: true})
	if err != nil {
		return nil, 0, fmt.Errorf("merging the inputs' types: %w", err)
	}
	return d, ptrSz, nil
}

func samePath(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// parseMapped parses a plain raw BTF file (vmlinux.btf) from a read-only
// mapping of it: btf.Parse copies what it keeps, so the file's bytes need
// no heap buffer of their own, which spares a whole-process run of a
// kernel-sized BTF a few milliseconds. It reports false (and the caller
// uses btf.LoadFile, whose errors name the problem) for anything else: an
// ELF, a split or archive BTF, a file that cannot be mapped (sysfs).
func parseMapped(path string) (*btf.Spec, bool) {
	if abs, err := filepath.Abs(path); err != nil || strings.HasPrefix(abs, btf.SysfsDir+"/") {
		return nil, false
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < btf.HeaderLen || fi.Size() > 1<<31 {
		return nil, false
	}
	m, err := elfx.Map(path)
	if err != nil {
		return nil, false
	}
	defer m.Close()
	data := m.Bytes()
	if _, _, n, err := btf.ParseHeader(data); err != nil || n < len(data)-8 {
		return nil, false // not raw BTF, or an archive of several
	}
	s, err := btf.Parse(data, nil)
	if err != nil {
		return nil, false
	}
	return s, true
}
