package main

// btfkit minimize: the BTF a set of BPF objects needs for their CO-RE
// relocations (bpftool gen min_core_btf), for vmlinux and modules, for one
// kernel or a directory of them.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
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

Four forms:

  --base VMLINUX -o OUT
      one kernel: OUT is the minimized vmlinux BTF (- for standard output).
  --base VMLINUX --module MOD... -o DIR
      one kernel and its modules (split BTF: a .ko, a raw file, or
      /sys/kernel/btf/MOD): DIR/vmlinux is the minimized vmlinux BTF and
      DIR/MOD (the module's name) each module's minimized split BTF against
      it. A relocation looks in a module when vmlinux has no type of its
      name, as libbpf and the kernel search.
  --base KDIR -o DIR
      a directory laid out as /sys/kernel/btf is (a vmlinux file, its
      modules' files beside it; --base /sys/kernel/btf is the running
      kernel with all its loaded modules): as --module with each module.
  --base KERNELS -o DIR
      many kernels (BTFHub): every file of the directory KERNELS (raw BTF or
      ELF with .BTF) is a kernel's vmlinux BTF, minimized to DIR/ under the
      same name, and every directory with a vmlinux file a kernel with its
      modules, minimized to the directory of that name in DIR; the objects
      are read once, -j kernels at a time. A kernel that fails is named and
      the others are written (the status is then 1).

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
	f.StringVar(&minimizeOpts.base, "base", "", "`VMLINUX`: the kernel's vmlinux BTF; or a directory laid out as /sys/kernel/btf, or of kernels")
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
	if !st.IsDir() {
		k := kernelJob{vmlinux: o.base, modules: o.modules, out: o.out, dir: len(o.modules) > 0}
		return k.run(objs, stderr, o.verbose)
	}
	if o.out == "-" {
		return errors.New("-o -: with a directory --base the output is a directory")
	}
	if k, ok, err := kernelInDir(o.base, o.out); err != nil {
		return err
	} else if ok {
		k.modules = append(k.modules, o.modules...)
		return k.run(objs, stderr, o.verbose)
	}
	if len(o.modules) > 0 {
		return errors.New("--module goes with one kernel (a --base file, or a directory with a vmlinux file), not a directory of kernels")
	}
	return minimizeKernels(o.base, o.out, o.jobs, objs, stderr, o.verbose)
}

// kernelJob is one kernel to minimize: its vmlinux BTF, its modules'
// split BTF, and where the output goes: the file out, or, with dir, the
// directory out (vmlinux and one file per module, by the module's name).
type kernelJob struct {
	vmlinux string
	modules []string
	out     string
	dir     bool
}

// kernelInDir reads a directory laid out as /sys/kernel/btf is, a
// vmlinux file and the modules' files beside it, as one kernel job
// writing to out; ok is false when dir has no vmlinux file.
func kernelInDir(dir, out string) (k kernelJob, ok bool, err error) {
	vmlinux := filepath.Join(dir, "vmlinux")
	if st, err := os.Stat(vmlinux); err != nil || st.IsDir() {
		return k, false, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return k, false, err
	}
	k = kernelJob{vmlinux: vmlinux, out: out, dir: true}
	for _, e := range ents { // ReadDir sorts by name
		if e.Name() != "vmlinux" && (e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0) {
			k.modules = append(k.modules, filepath.Join(dir, e.Name()))
		}
	}
	return k, true, nil
}

// moduleName is the output file name of a module's minimized BTF: the
// module's name (kvm for kvm.ko, kvm.ko.xz, kvm.btf or /sys/kernel/btf/kvm).
func moduleName(path string) string {
	return strings.TrimSuffix(kmod.Name(path), ".btf")
}

// run minimizes the kernel and writes its output; verbose prints the
// kernel's line of figures to w.
func (k kernelJob) run(objs []*minimize.Object, w io.Writer, verbose bool) error {
	start := time.Now()
	var outs, names []string
	if k.dir {
		outs = append(outs, filepath.Join(k.out, "vmlinux"))
		seen := map[string]string{}
		for _, p := range k.modules {
			name := moduleName(p)
			if name == "vmlinux" {
				return fmt.Errorf("%s: a module named vmlinux would overwrite the minimized vmlinux BTF", p)
			}
			if prev, dup := seen[name]; dup {
				return fmt.Errorf("%s and %s: two modules named %s", prev, p, name)
			}
			seen[name] = p
			names = append(names, name)
			outs = append(outs, filepath.Join(k.out, name))
		}
		// None of the outputs may be one of the inputs (cmdline.go's
		// rule for -o, file by file).
		for _, out := range outs {
			for _, in := range append([]string{k.vmlinux}, k.modules...) {
				if sameFile(in, out) {
					return fmt.Errorf("%s: the output would replace the input %s: write to another directory", out, in)
				}
			}
			for _, o := range objs {
				if sameFile(o.Path, out) {
					return fmt.Errorf("%s: the output would replace the input %s: write to another directory", out, o.Path)
				}
			}
		}
	} else if k.out == "-" && len(k.modules) > 0 {
		return errors.New("-o -: with --module the output is a directory")
	}
	base, err := input.LoadBase(k.vmlinux)
	if err != nil {
		return err
	}
	var mods []*btf.Spec
	for _, p := range k.modules {
		s, err := input.Load(p, base)
		if err != nil {
			return err
		}
		if s.Base() != base {
			return fmt.Errorf("%s: not split BTF against %s", p, k.vmlinux)
		}
		mods = append(mods, s)
	}
	res, err := minimize.Minimize(base, mods, objs)
	if err != nil {
		return fmt.Errorf("%s: %w", k.vmlinux, err)
	}
	if !k.dir {
		if err := writeOutput(k.out, res.Base.Marshal(nil)); err != nil {
			return err
		}
	} else {
		if err := os.MkdirAll(k.out, 0o755); err != nil {
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
	}
	if verbose {
		reportMinimized(w, k.vmlinux, res, time.Since(start))
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

// minimizeKernels minimizes every kernel of dir into out, jobs at a time:
// each file is a kernel's vmlinux BTF, minimized to out/NAME; each
// directory with a vmlinux file a kernel with its modules, minimized to
// the directory out/NAME. A kernel that fails is reported and the others
// go on; the status is then 1.
func minimizeKernels(dir, out string, jobs int, objs []*minimize.Object, stderr io.Writer, verbose bool) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--base: %w", err)
	}
	var kernels []kernelJob
	for _, e := range ents { // sorted by name
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p) // symbolic links followed
		if err != nil {
			return fmt.Errorf("--base: %w", err)
		}
		switch {
		case st.Mode().IsRegular():
			kernels = append(kernels, kernelJob{vmlinux: p, out: filepath.Join(out, e.Name())})
		case st.IsDir():
			k, ok, err := kernelInDir(p, filepath.Join(out, e.Name()))
			if err != nil {
				return fmt.Errorf("--base: %w", err)
			}
			if ok {
				kernels = append(kernels, k)
			}
		}
	}
	if len(kernels) == 0 {
		return fmt.Errorf("--base %s: no kernel BTF files (nor directories with a vmlinux file) in the directory", dir)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	type outcome struct {
		msg bytes.Buffer
		err error
	}
	results := make([]outcome, len(kernels))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(jobs, len(kernels)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(kernels) {
					return
				}
				results[i].err = kernels[i].run(objs, &results[i].msg, verbose)
			}
		}()
	}
	wg.Wait()
	failed := 0
	for i := range results {
		if err := results[i].err; err != nil {
			fmt.Fprintf(stderr, "btfkit: %v\n", err)
			failed++
		} else {
			stderr.Write(results[i].msg.Bytes())
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "btfkit: %d of %d kernels failed\n", failed, len(kernels))
		return exitError{1}
	}
	return nil
}
