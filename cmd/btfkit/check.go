package main

// btfkit check: validate BTF by the kernel verifier's rules, optionally
// asking the running kernel too.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"
)

var checkOpts struct {
	base      string
	kernel    bool
	strict    bool
	max       int
	kernelLog int
	target    string
	tree      string
	jobs      int
	quiet     bool
}

var checkCmd = &cobra.Command{
	Use:   "check [--base FILE] [--kernel] [--target-kernel VERSION] [--strict] FILE...\n  btfkit check --base VMLINUX --tree DIR [--target-kernel VERSION] [-j N]",
	Short: "Validate BTF by the Linux kernel verifier's rules (and optionally by the kernel itself)",
	Long: `Validate each FILE by the rules the Linux kernel's BTF verifier applies when
BTF is loaded with bpf(BPF_BTF_LOAD) (kernel/bpf/btf.c): by default those of
the newest kernel btfkit knows (a kind layout section, 24-bit vlen and 7-bit
kinds are fine), with --target-kernel VERSION those of that release (which
kinds, kind_flags and header it accepts: see 'btfkit downgrade --list'), with
--kernel those of the running kernel. The rules: header and section layout, string offsets, names (which kinds must or must not
be named, valid identifiers and section names), kind_flag and vlen, sizes,
INT encodings, type IDs and the kinds they may refer to, reference loops and
the kernel's resolve depth of 32, member offsets, bitfields, arrays, function
parameters, linkage, DATASEC entries, DECL_TAG components and TYPE_TAG order.

FILE may be raw BTF, an ELF file with a .BTF section (vmlinux, a module .ko,
an object .o), /sys/kernel/btf/vmlinux or /sys/kernel/btf/MODULE. Split BTF
(a module's) is checked against its base: --base FILE (raw BTF or ELF), which
for /sys/kernel/btf/MODULE defaults to /sys/kernel/btf/vmlinux; the base's own
types are trusted (check the base on its own first). A BTF archive (several
blobs back to back, as 'ld -r' leaves gcc -gbtf objects) is checked member by
member.

Output: one line "FILE: OK (N types)" per valid input; otherwise one line per
problem, "FILE: type [ID] KIND 'name': what is wrong (rule)", and a count.
Each problem names the rule it breaks (layout, sections, strings, limit,
info-bits, kind, name-offset, name-required, name-forbidden, name-invalid,
kind-flag, vlen, size, int, type-id, ref-kind, loop, depth, member-offset,
member-bounds, bitfield, array, param, linkage, datasec, decl-tag, type-tag,
kind-layout; with --strict also name-start and convention).

--strict adds conventions the kernel does not enforce: names pointing at the
start of a string, named INT and FLOAT types, INT sizes of 1, 2, 4, 8 or 16,
anonymous members only of struct or union type, no dots in identifiers (older
kernels reject them).

--kernel also loads each input into the running kernel with BPF_BTF_LOAD
(the object is released at once; BTF in the other byte order is then a
problem too) and prints "kernel: accepted", or the end
of the kernel verifier's log when it rejects the BTF. This needs root or
CAP_BPF; where bpf() is not permitted, btfkit says so. The kernel cannot load
split BTF from user space, so split inputs are only checked by btfkit.

--tree DIR checks every module of a kernel's module tree (/lib/modules/VER,
a debug package's /usr/lib/debug/lib/modules/VER, or any directory: .ko,
.ko.xz, .ko.zst and .ko.gz files found under it) as the target kernel's
module loader would take it, against the vmlinux given with --base (an ELF
with .BTF or its raw BTF; without --base, the one vmlinux or vmlinux-*
file under DIR): its split BTF must fit this vmlinux's BTF (base-mismatch:
a module built against another vmlinux, with the first type that does not
fit), a .BTF.base must relocate onto it (relocation), the BTF must keep the
verifier's rules of --target-kernel (default: the release of the tree's
lib/modules/VERSION directory, else the newest), every .BTF_ids entry must name a type
of its kind in the module or the base and hold its ID (btf-ids), and from
Linux 6.11 every kfunc FUNC must carry the "bpf_kfunc" DECL_TAG pahole adds
(kfunc-tag). A module that cannot be read is a problem too (read), and so
is a name offset into the middle of a string (name-start: the kernel takes
it, no BTF writer makes it). One line per problem, "MODULE: type [ID] KIND 'name': what is
wrong (rule)", in module path order whatever -j, then a summary line;
modules without .BTF are counted, not problems. -j N checks N modules at
once (default: one per CPU); a progress bar is drawn on a terminal unless
-q. Exit status 0 when no module has a problem, 1 otherwise.

Exit status: 0 when every input is valid (and, with --kernel, accepted);
1 when any input has a problem, is rejected by the kernel, or cannot be read;
2 when every input is valid but --kernel could not ask the kernel (bpf() not
permitted here).`,
	Example: `  # The running kernel's BTF and a loaded module's (base found automatically)
  btfkit check /sys/kernel/btf/vmlinux /sys/kernel/btf/xfs

  # BTF written by btfkit or pahole, also asking the running kernel
  btfkit check --kernel vmlinux.btf

  # A module's split BTF against the vmlinux it was built with
  btfkit check --base vmlinux xfs.ko

  # Every module of a kernel package, as its kernel would load them
  btfkit check --base /usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64 \
      --tree /usr/lib/debug/lib/modules/6.1.0-57-cloud-amd64 --target-kernel 6.1`,
	Args: func(cmd *cobra.Command, args []string) error {
		if checkOpts.tree != "" {
			if len(args) > 0 {
				return fmt.Errorf("--tree checks the modules under its directory: give no FILE with it (got %q)", args[0])
			}
			if checkOpts.kernel || checkOpts.strict {
				return fmt.Errorf("--tree cannot be combined with --kernel or --strict")
			}
			return nil
		}
		if cmd.Flags().Changed("jobs") || cmd.Flags().Changed("quiet") {
			return fmt.Errorf("-j and -q apply to --tree only")
		}
		return cobra.MinimumNArgs(1)(cmd, args)
	},
	RunE: runCheck,
}

func init() {
	f := checkCmd.Flags()
	f.StringVar(&checkOpts.base, "base", "", "base BTF `FILE` for split BTF inputs (raw BTF or ELF: vmlinux)")
	f.BoolVar(&checkOpts.kernel, "kernel", false, "also load each input with BPF_BTF_LOAD into the running kernel and report its verdict")
	f.BoolVar(&checkOpts.strict, "strict", false, "also check conventions the kernel does not enforce")
	f.IntVar(&checkOpts.max, "max-problems", 0, "print at most `N` problems per input (0: all)")
	f.StringVar(&checkOpts.target, "target-kernel", "", "apply the rules of Linux `VERSION` (6.1, 6.12, ...; default: the newest, or the running kernel's with --kernel)")
	f.IntVar(&checkOpts.kernelLog, "kernel-log-lines", 20, "print the last `N` lines of the kernel verifier's log on rejection (0: all)")
	f.StringVar(&checkOpts.tree, "tree", "", "check every module (.ko, .ko.xz, .ko.zst, .ko.gz) under `DIR` against --base, as the target kernel's module loader would")
	f.IntVarP(&checkOpts.jobs, "jobs", "j", 0, "with --tree: check up to `N` modules at once (0: one per CPU; the output does not depend on it)")
	f.BoolVarP(&checkOpts.quiet, "quiet", "q", false, "with --tree: no progress bar on a terminal")
	rootCmd.AddCommand(checkCmd)
}

// checkInput is one BTF blob to check and how to name it.
type checkInput struct {
	label string
	raw   []byte
	base  *btf.Spec
}

func runCheck(cmd *cobra.Command, args []string) error {
	if checkOpts.tree != "" {
		return runCheckTree(cmd)
	}
	var base *btf.Spec
	if checkOpts.base != "" {
		b, err := input.LoadBase(checkOpts.base)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		base = b
	}
	opts := []btf.CheckOption{btf.MaxProblems(checkOpts.max)}
	if checkOpts.strict {
		opts = append(opts, btf.Strict())
	}
	if checkOpts.kernel {
		// The running kernel loads only BTF in its own byte order.
		opts = append(opts, btf.HostByteOrder())
	}
	switch {
	case checkOpts.target != "":
		v, err := btf.ParseKernelVersion(checkOpts.target)
		if err != nil {
			return err
		}
		opts = append(opts, btf.ForKernel(v))
	case checkOpts.kernel:
		var uts unix.Utsname
		if err := unix.Uname(&uts); err == nil {
			if v, err := btf.ParseKernelVersion(unix.ByteSliceToString(uts.Release[:])); err == nil {
				opts = append(opts, btf.ForKernel(v))
			}
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	bad, kernelUnavailable := false, false
	for _, path := range args {
		// A module under /sys/kernel/btf gets the running kernel's
		// vmlinux as its base (package input, loaded once).
		inputs, err := readCheckInputs(path, base)
		if err != nil {
			fmt.Fprintf(out, "%v\n", err) // input's errors name the file
			bad = true
			continue
		}
		for _, in := range inputs {
			ok, kernOK := checkOne(out, in, opts)
			bad = bad || !ok
			kernelUnavailable = kernelUnavailable || !kernOK
		}
	}
	if err := out.Flush(); err != nil {
		return err
	}
	switch {
	case bad:
		return exitError{1}
	case kernelUnavailable:
		return exitError{2}
	}
	return nil
}

// readCheckInputs reads the BTF of a file (package input): one blob, or
// each member of a BTF archive; a module with .BTF.base relocated onto
// base, as the kernel checks it.
func readCheckInputs(path string, base *btf.Spec) ([]checkInput, error) {
	ms, err := input.Members(path, base)
	if err != nil {
		return nil, err
	}
	ins := make([]checkInput, len(ms))
	for i, m := range ms {
		ins[i] = checkInput{label: m.Label, raw: m.Raw, base: m.Base}
	}
	return ins, nil
}

// checkOne checks one blob and prints the verdict. ok is false when we or
// the kernel found a problem; kernOK is false when --kernel was asked for
// but the kernel could not be asked.
func checkOne(w io.Writer, in checkInput, opts []btf.CheckOption) (ok, kernOK bool) {
	s, err := btf.CheckRaw(in.raw, in.base, opts...)
	ok, kernOK = true, true
	var ce *btf.CheckError
	switch {
	case err == nil:
		fmt.Fprintf(w, "%s: OK (%d types)\n", in.label, s.NumTypes())
	case errors.As(err, &ce):
		ok = false
		for _, p := range ce.Problems {
			fmt.Fprintf(w, "%s: %s\n", in.label, p)
		}
		more := ""
		if ce.Truncated {
			more = " shown, more found"
		}
		fmt.Fprintf(w, "%s: %d problem%s%s\n", in.label, len(ce.Problems), plural(len(ce.Problems)), more)
	default:
		ok = false
		fmt.Fprintf(w, "%s: %v\n", in.label, err)
	}
	if !checkOpts.kernel {
		return ok, kernOK
	}
	if in.base != nil {
		fmt.Fprintf(w, "%s: kernel: not asked (the kernel cannot load split BTF from user space)\n", in.label)
		return ok, kernOK
	}
	err = kernload.Load(in.raw)
	var rej *kernload.RejectedError
	switch {
	case err == nil:
		fmt.Fprintf(w, "%s: kernel: accepted\n", in.label)
	case errors.Is(err, kernload.ErrNotPermitted):
		kernOK = false
		fmt.Fprintf(w, "%s: kernel: cannot ask: %v (needs root or CAP_BPF, and bpf() allowed by seccomp)\n", in.label, err)
	case errors.As(err, &rej):
		ok = false
		lines := strings.Split(strings.TrimRight(rej.Log, "\n"), "\n")
		n := checkOpts.kernelLog
		note := ""
		if n > 0 && len(lines) > n {
			note = fmt.Sprintf(", last %d of %d log lines", n, len(lines))
			lines = lines[len(lines)-n:]
		}
		fmt.Fprintf(w, "%s: kernel: rejected (%v%s):\n", in.label, rej.Errno, note)
		for _, l := range lines {
			fmt.Fprintf(w, "    %s\n", l)
		}
		if rej.Errno == unix.ENOSPC {
			// Since Linux 6.4 a verifier log that overflows its buffer
			// fails the load with ENOSPC, whatever the verdict.
			fmt.Fprintf(w, "%s: kernel: note: ENOSPC may only mean that the verifier log (one line per type) overflowed its buffer\n", in.label)
		}
	default:
		ok = false
		fmt.Fprintf(w, "%s: kernel: %v\n", in.label, err)
	}
	return ok, kernOK
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
