package main

// btfkit minimize: the BTF a set of BPF objects needs for their CO-RE
// relocations (bpftool gen min_core_btf), for vmlinux and modules, for one
// kernel or a directory of them.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/minimize"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/kmod"
	"github.com/spf13/cobra"
)

var minimizeOpts struct {
	base, out string
	modules   []string
	jobs      int
	verbose   bool
}

var minimizeCmd = &cobra.Command{
	Use:   "minimize --base VMLINUX [--module MOD]... -o OUT OBJECT...",
	Short: "The minimal BTF BPF objects need for their CO-RE relocations (bpftool gen min_core_btf)",
	Long: `minimize writes the part of a kernel's BTF that the CO-RE relocations of the
BPF OBJECTs (clang -g -target bpf; their .BTF.ext) need: what
'bpftool gen min_core_btf VMLINUX OUT OBJECT...' writes, the file BTFHub ships
for a kernel without BTF and libbpf loads as btf_custom_path. Each
relocation is resolved as libbpf resolves it (candidates by name without a
___flavor suffix, fields by name through anonymous members); what the
resolved target walks through is kept: the struct and union members
accessed and their types, the types a type relocation names (structs
without members), whole enums. Other members are dropped, and a pointer to
a type nothing keeps becomes a pointer to void.

Three forms:

  --base VMLINUX -o OUT
      one kernel: OUT is the minimized vmlinux BTF (- for standard output).
  --base VMLINUX --module MOD... -o DIR
      one kernel and its modules (split BTF: a .ko, a raw file, or
      /sys/kernel/btf/MOD): DIR/vmlinux is the minimized vmlinux BTF and
      DIR/MOD (the module's name) each module's minimized split BTF against
      it. A relocation looks in a module when vmlinux has no type of its
      name, as libbpf and the kernel search.
  --base KERNELS -o DIR
      many kernels (BTFHub): every file of the directory KERNELS (raw BTF or
      ELF with .BTF) is a kernel's vmlinux BTF, minimized to DIR/ under the
      same name; the objects are read once, -j kernels at a time.

VMLINUX is raw BTF or an ELF file with .BTF (a vmlinux, /sys/kernel/btf/vmlinux).
A relocation that matches nothing in a kernel keeps nothing (the program
checks at load time that the field or type exists); one that libbpf
refuses (an access string that does not fit, an ambiguous match) is an
error. -v prints, per kernel, the relocations read, those left unresolved,
the types kept and the time taken.`,
	Example: `  btfkit minimize --base /sys/kernel/btf/vmlinux -o min.btf prog.bpf.o
  btfkit minimize --base vmlinux.btf --module kvm.ko -o min/ prog.bpf.o
  btfkit minimize --base btfhub/5.15/ -o min-5.15/ -j 8 prog1.bpf.o prog2.bpf.o`,
	Args: func(cmd *cobra.Command, args []string) error {
		if minimizeOpts.base == "" || minimizeOpts.out == "" {
			return fmt.Errorf("--base and -o are required")
		}
		if len(args) == 0 {
			return fmt.Errorf("no BPF object given")
		}
		return nil
	},
	RunE: runMinimize,
}

func init() {
	f := minimizeCmd.Flags()
	f.StringVar(&minimizeOpts.base, "base", "", "the kernel's vmlinux BTF (`VMLINUX`), or a directory of kernels' BTF")
	f.StringArrayVar(&minimizeOpts.modules, "module", nil, "a module's BTF, split against VMLINUX (`MOD`; repeat for more)")
	f.StringVarP(&minimizeOpts.out, "output", "o", "", "write to `OUT` (a file; a directory with --module or a directory --base)")
	f.IntVarP(&minimizeOpts.jobs, "jobs", "j", 0, "kernels minimized at once with a directory --base (`N`; 0: one per CPU)")
	f.BoolVarP(&minimizeOpts.verbose, "verbose", "v", false, "print what was kept and the time taken, per kernel, on standard error")
	rootCmd.AddCommand(minimizeCmd)
}

func runMinimize(cmd *cobra.Command, args []string) error {
	o := minimizeOpts
	objs := make([]*minimize.Object, len(args))
	for i, a := range args {
		obj, err := minimize.LoadObject(a)
		if err != nil {
			return err
		}
		objs[i] = obj
	}
	st, err := os.Stat(o.base)
	if err != nil {
		return fmt.Errorf("--base: %w", err)
	}
	stderr := cmd.ErrOrStderr()
	if st.IsDir() {
		if len(o.modules) > 0 {
			return errors.New("--module goes with one kernel's --base file, not a directory of kernels")
		}
		if o.out == "-" {
			return errors.New("-o -: with a directory --base the output is a directory")
		}
		return minimizeKernels(o.base, o.out, o.jobs, objs, stderr, o.verbose)
	}
	start := time.Now()
	base, err := input.LoadBase(o.base)
	if err != nil {
		return err
	}
	var mods []*btf.Spec
	var names []string
	seen := map[string]string{}
	for _, p := range o.modules {
		s, err := input.Load(p, base)
		if err != nil {
			return err
		}
		if s.Base() != base {
			return fmt.Errorf("%s: not split BTF against %s", p, o.base)
		}
		name := strings.TrimSuffix(kmod.Name(p), ".btf")
		if name == "vmlinux" {
			return fmt.Errorf("%s: a module named vmlinux would overwrite the minimized vmlinux BTF", p)
		}
		if prev, dup := seen[name]; dup {
			return fmt.Errorf("%s and %s: two modules named %s", prev, p, name)
		}
		seen[name] = p
		mods = append(mods, s)
		names = append(names, name)
	}
	res, err := minimize.Minimize(base, mods, objs)
	if err != nil {
		return fmt.Errorf("%s: %w", o.base, err)
	}
	if o.verbose {
		reportMinimized(stderr, o.base, res, time.Since(start))
	}
	if len(mods) == 0 {
		return writeOutput(o.out, res.Base.Marshal(nil))
	}
	if o.out == "-" {
		return errors.New("-o -: with --module the output is a directory")
	}
	// The outputs go into a directory: none may be one of the inputs
	// (cmdline.go's rule for -o, file by file).
	outs := []string{filepath.Join(o.out, "vmlinux")}
	for _, n := range names {
		outs = append(outs, filepath.Join(o.out, n))
	}
	for _, out := range outs {
		for _, in := range append(append([]string{o.base}, o.modules...), args...) {
			if sameFile(in, out) {
				return fmt.Errorf("%s: the output would replace the input %s: write to another directory", out, in)
			}
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	if err := writeOutput(outs[0], res.Base.Marshal(nil)); err != nil {
		return err
	}
	for i, s := range res.Modules {
		if err := writeOutput(outs[1+i], s.Marshal(nil)); err != nil {
			return err
		}
	}
	return nil
}

func reportMinimized(w io.Writer, name string, res *minimize.Result, d time.Duration) {
	n := res.Base.NumTypes()
	for _, m := range res.Modules {
		n += m.NumTypes()
	}
	fmt.Fprintf(w, "btfkit: %s: %d relocations, %d unresolved, %d types kept, %.1f ms\n",
		name, res.Relocations, res.Unresolved, n, float64(d.Microseconds())/1000)
}

// minimizeKernels minimizes every kernel BTF file of dir into out, jobs at
// a time. A kernel that fails is reported and the others go on; the
// status is then 1.
func minimizeKernels(dir, out string, jobs int, objs []*minimize.Object, stderr io.Writer, verbose bool) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--base: %w", err)
	}
	var files []string
	for _, e := range ents {
		if e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0 {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return fmt.Errorf("--base %s: no kernel BTF files in the directory", dir)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	type outcome struct {
		msg string
		err error
	}
	results := make([]outcome, len(files))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(jobs, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(files) {
					return
				}
				results[i].msg, results[i].err = minimizeKernel(filepath.Join(dir, files[i]), filepath.Join(out, files[i]), objs)
			}
		}()
	}
	wg.Wait()
	failed := 0
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(stderr, "btfkit: %v\n", r.err)
			failed++
		} else if verbose {
			fmt.Fprint(stderr, r.msg)
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "btfkit: %d of %d kernels failed\n", failed, len(files))
		return exitError{1}
	}
	return nil
}

// minimizeKernel minimizes one kernel's BTF file into out, returning the
// -v line.
func minimizeKernel(in, out string, objs []*minimize.Object) (string, error) {
	start := time.Now()
	base, err := input.LoadBase(in)
	if err != nil {
		return "", err
	}
	res, err := minimize.Minimize(base, nil, objs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", in, err)
	}
	if err := writeOutput(out, res.Base.Marshal(nil)); err != nil {
		return "", err
	}
	var b strings.Builder
	reportMinimized(&b, in, res, time.Since(start))
	return b.String(), nil
}
