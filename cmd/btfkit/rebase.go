package main

// btfkit rebase: modules' split BTF moved onto a new vmlinux's BTF.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/kmod"
	"github.com/spf13/cobra"
)

var rebaseOpts struct {
	base, oldBase string
	out, outDir   string
	jobs          int
	quiet         bool
}

var rebaseCmd = &cobra.Command{
	Use:   "rebase --base NEW [--old-base OLD] [-j N] [-o OUT | --out-dir DIR] MODULE...",
	Short: "Move modules' split BTF onto a new vmlinux's BTF",
	Long: `rebase moves each MODULE's BTF (split BTF: it refers to its vmlinux's types by
ID) onto NEW, the BTF of another vmlinux (raw BTF, or an ELF file's .BTF), so
that a kernel whose BTF is NEW accepts the module's BTF: the result is plain
split BTF against NEW, what encoding the module against NEW makes.

MODULE is a kernel module (.ko) or raw split BTF (.btf). Its BTF is read
against the module's own .BTF.base (a distilled base, pahole's and btfkit
encode's distilled_base feature) when it has one, else against OLD
(--old-base: the BTF of the vmlinux it was built for). Each type of that
base the module uses is then found in NEW by name, as the kernel and
libbpf relocate a module's distilled base (btf__relocate): the same kind,
the same int encoding, the same size where size matters (ints, enums, and
structs and unions the module holds by value); with --old-base, which
knows their members, a struct or union the module holds by value must also
keep its members' names, bit offsets and bitfield sizes. A module whose
types do not fit NEW is refused, naming the type and why, and is not
written. The moved BTF is deduplicated against NEW (the copies of vmlinux
types the move carries become NEW's) and checked by the kernel's rules.

A module's .BTF is replaced and its .BTF.base removed: a .BTF.base beside
a .BTF split against NEW would make a kernel that relocates (Linux 6.12 and
later) read the .BTF against the wrong base, and kernels before 6.12 never
read .BTF.base. The module then fits NEW's kernel exactly, on any kernel
version; to keep a module portable across kernels, re-encode it with
--features=+distilled_base instead. The module is rewritten in place
(through a temporary file, renamed over it only when complete), or written
to OUT (-o, one MODULE) or to DIR/NAME (--out-dir, NAME being MODULE's file
name); raw BTF is written as raw BTF. Compressed modules (.ko.xz, .ko.zst,
.ko.gz) and modules with a .BTF_ids section (type IDs resolve_btfids wrote
for the old BTF, which rebase does not rewrite) are refused.

Modules are rebased -j at a time (NEW is read and prepared once); errors are
printed in the order of the arguments, the others are still written, and
the exit status is 1 when any module failed.`,
	Example: `  btfkit rebase --base /sys/kernel/btf/vmlinux mymod.ko
  btfkit rebase --base new/vmlinux --old-base old/vmlinux --out-dir new-modules/ *.ko
  btfkit rebase --base vmlinux.sorted.btf --old-base vmlinux.btf -o xfs.new.btf xfs.btf`,
	Args: cobra.MinimumNArgs(1),
	RunE: runRebase,
}

func init() {
	f := rebaseCmd.Flags()
	f.StringVar(&rebaseOpts.base, "base", "", "the new base BTF `NEW` (raw or ELF) to move the modules onto (required)")
	f.StringVar(&rebaseOpts.oldBase, "old-base", "", "the base BTF `OLD` (raw or ELF) the modules were made against, for modules without a .BTF.base")
	f.StringVarP(&rebaseOpts.out, "output", "o", "", "write the one MODULE's result to `OUT` instead of in place")
	f.StringVar(&rebaseOpts.outDir, "out-dir", "", "write each MODULE's result to `DIR`, under its file name, instead of in place")
	f.IntVarP(&rebaseOpts.jobs, "jobs", "j", runtime.GOMAXPROCS(0), "rebase up to `N` modules at once (0: one per CPU; the output does not depend on it)")
	f.BoolVarP(&rebaseOpts.quiet, "quiet", "q", false, "print no summary; errors are still printed")
	rebaseCmd.MarkFlagRequired("base")
	rootCmd.AddCommand(rebaseCmd)
}

func runRebase(cmd *cobra.Command, args []string) error {
	t0 := time.Now()
	o := rebaseOpts
	switch {
	case o.out != "" && o.outDir != "":
		return fmt.Errorf("-o and --out-dir exclude each other")
	case o.out != "" && len(args) > 1:
		return fmt.Errorf("-o writes one file and %d modules were given: use --out-dir DIR", len(args))
	case o.out == "-":
		return fmt.Errorf("-o -: a module is rewritten as a file, not to standard output")
	}
	if o.outDir != "" {
		seen := map[string]string{}
		for _, a := range args {
			if prev, ok := seen[filepath.Base(a)]; ok {
				return fmt.Errorf("%s and %s would both be written to %s", prev, a, filepath.Join(o.outDir, filepath.Base(a)))
			}
			seen[filepath.Base(a)] = a
		}
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return err
		}
	}
	newBase, err := input.LoadBase(o.base)
	if err != nil {
		return fmt.Errorf("--base: %w", err)
	}
	target := distill.NewTarget(newBase)
	prepared, err := dedup.PrepareBase(newBase)
	if err != nil {
		return fmt.Errorf("--base: %s: %w", o.base, err)
	}
	var oldBase *btf.Spec
	if o.oldBase != "" {
		if oldBase, err = input.LoadBase(o.oldBase); err != nil {
			return fmt.Errorf("--old-base: %w", err)
		}
	}

	jobs := o.jobs
	if jobs == 0 {
		jobs = runtime.NumCPU()
	}
	errs := make([]error, len(args))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(jobs, len(args)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				dst := args[i]
				switch {
				case o.out != "":
					dst = o.out
				case o.outDir != "":
					dst = filepath.Join(o.outDir, filepath.Base(args[i]))
				}
				errs[i] = rebaseOne(args[i], dst, oldBase, target, prepared)
			}
		}()
	}
	for i := range args {
		next <- i
	}
	close(next)
	wg.Wait()

	failed := 0
	stderr := cmd.ErrOrStderr()
	for _, err := range errs {
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "btfkit rebase: %v\n", err)
		}
	}
	if !o.quiet {
		fmt.Fprintf(stderr, "btfkit rebase: %s, %d written, %d failed; %.2f s\n",
			count(len(args), "module"), len(args)-failed, failed, time.Since(t0).Seconds())
	}
	if failed > 0 {
		return fmt.Errorf("%d of %s failed", failed, count(len(args), "module"))
	}
	return nil
}

// rebaseOne moves the BTF of the module (or raw split BTF) at path onto
// the new base (target and nb, prepared from it once) and writes the
// result to dst (path itself in place).
func rebaseOne(path, dst string, oldBase *btf.Spec, target *distill.Target, nb *dedup.Base) error {
	isELF, err := rebaseInputKind(path)
	if err != nil {
		return err
	}
	ms, err := input.Members(path, nil)
	if err != nil {
		return err
	}
	if len(ms) != 1 {
		return &btf.ArchiveError{Path: ms[0].Where, Members: len(ms)}
	}
	m := ms[0]
	if m.Base == nil {
		// Split BTF's strings start with its first name (or it has
		// none, as cast_common's); a complete BTF's start with the
		// empty string, but so may a split BTF's. Complete means: it
		// reads and checks as BTF of its own.
		complete := false
		if !input.LooksSplit(m.Raw) {
			if s, err := btf.Parse(m.Raw, nil); err == nil && s.Check(btf.MaxProblems(1)) == nil {
				complete = true
			}
		}
		notSplit := fmt.Errorf("%s: not split BTF (a module's) but a complete BTF: nothing to rebase", m.Label)
		switch {
		case complete && oldBase == nil:
			return notSplit
		case oldBase == nil:
			return fmt.Errorf("%s: no .BTF.base: give the BTF it was made against with --old-base", path)
		}
		m.Base = oldBase
		if s, err := m.Spec(); complete && (err != nil || s.Check(btf.MaxProblems(1)) != nil) {
			return notSplit
		}
	}
	spec, err := m.Spec()
	if err != nil {
		return err
	}
	// BTF read against a base it was not made against parses, and
	// refers to the wrong types: say so before moving anything.
	if err := spec.Check(btf.MaxProblems(1)); err != nil {
		return fmt.Errorf("%s: does not fit the base it is read against (%s): %w", m.Label, rebaseSource(m, oldBase), err)
	}
	moved, err := target.Rebase(spec)
	if err != nil {
		return fmt.Errorf("%s: not rebased onto %s: %w", path, rebaseOpts.base, err)
	}
	out, _, err := dedup.Dedup(moved, dedup.Options{Base: nb})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := out.Check(); err != nil {
		return fmt.Errorf("%s: the rebased BTF breaks the kernel's rules: %w", path, err)
	}
	data := out.Marshal(nil)
	if !isELF {
		return writeOutput(dst, data)
	}
	secs := []elfx.Section{{Name: ".BTF", Data: data}, {Name: ".BTF.base", Remove: true}}
	return elfx.WriteSectionsTo(path, dst, secs, func(tmp string) error {
		f, err := elfx.Open(tmp)
		if err != nil {
			return fmt.Errorf("the written file does not read back: %w", err)
		}
		defer f.Close()
		if got, err := f.SectionData(".BTF"); err != nil || !bytes.Equal(got, data) {
			return fmt.Errorf("section .BTF does not read back as written (%d bytes, want %d; %v)", len(got), len(data), err)
		}
		if _, err := f.SectionData(".BTF.base"); !errors.Is(err, elfx.ErrNoSection) {
			return fmt.Errorf("section .BTF.base is still there (%v)", err)
		}
		return nil
	})
}

// rebaseSource names the base a module's BTF was read against.
func rebaseSource(m input.Member, oldBase *btf.Spec) string {
	if m.Base == oldBase {
		return "--old-base " + rebaseOpts.oldBase + "; is it the BTF the module was made against?"
	}
	return "its .BTF.base"
}

// rebaseInputKind says whether path is an ELF file rebase can rewrite
// (false: raw BTF), refusing the modules it cannot.
func rebaseInputKind(path string) (bool, error) {
	f, err := elfx.Open(path)
	if errors.Is(err, elfx.ErrNotELF) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if kmod.IsCompressed(path) {
		return false, fmt.Errorf("%s: a compressed module cannot be rewritten: decompress it first", path)
	}
	if _, err := f.SectionData(".BTF_ids"); err == nil {
		return false, fmt.Errorf("%s: has .BTF_ids, type IDs of its old BTF that rebase does not rewrite (resolve_btfids would have to run again): not rebased", path)
	} else if !errors.Is(err, elfx.ErrNoSection) {
		return false, err
	}
	return true, nil
}
