package main

// btfkit downgrade: make BTF loadable by an older kernel.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/downgrade"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

var downgradeOpts struct {
	target, out string
	list        bool
}

var downgradeCmd = &cobra.Command{
	Use:   "downgrade --target-kernel VERSION -o OUT FILE",
	Short: "Rewrite BTF so that an older kernel (BPF_BTF_LOAD) accepts it",
	Long: `downgrade rewrites FILE's BTF (raw BTF or an ELF file's .BTF; complete BTF,
not a module's split BTF) so that Linux VERSION accepts it, removing or
replacing what that kernel predates, one rule per BTF feature (--list
prints them with the release that introduced each):

` + rulesTable() + `
Dropped types (the tags) are removed and the later types renumbered, every
reference rewritten; a reference to a dropped TYPE_TAG goes to the type it
tagged. What was changed is reported on standard error. The result is what
'btfkit check --target-kernel VERSION' accepts.`,
	Example: `  btfkit downgrade --target-kernel 6.1 -o vmlinux-for-6.1.btf /sys/kernel/btf/vmlinux
  btfkit downgrade --list`,
	Args: func(cmd *cobra.Command, args []string) error {
		if downgradeOpts.list {
			return cobra.NoArgs(cmd, args)
		}
		if downgradeOpts.target == "" || downgradeOpts.out == "" {
			return fmt.Errorf("--target-kernel and -o are required")
		}
		return cobra.ExactArgs(1)(cmd, args)
	},
	RunE: runDowngrade,
}

func init() {
	f := downgradeCmd.Flags()
	f.StringVar(&downgradeOpts.target, "target-kernel", "", "the Linux release to write for (`VERSION`: 6.1, 6.12, ...)")
	f.StringVarP(&downgradeOpts.out, "output", "o", "", "write the result to `OUT` (- for standard output)")
	f.BoolVar(&downgradeOpts.list, "list", false, "print the rules, one per BTF feature, and exit")
	rootCmd.AddCommand(downgradeCmd)
}

func rulesTable() string {
	var b strings.Builder
	for _, r := range downgrade.Rules() {
		fmt.Fprintf(&b, "  %-14s %-5s %s\n", r.Feature.Name, r.Feature.Since, r.Action)
	}
	return b.String()
}

// downgradeSpec applies --target-kernel to s (encode's and downgrade's),
// reporting what changed to w.
func downgradeSpec(s *btf.Spec, target string, w io.Writer) (*btf.Spec, error) {
	v, err := btf.ParseKernelVersion(target)
	if err != nil {
		return nil, fmt.Errorf("--target-kernel: %w", err)
	}
	out, rep, err := downgrade.ForKernel(s, v)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(rep))
	for n := range rep {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "btfkit: for Linux %s: %s: %d changes\n", v, n, rep[n])
	}
	return out, nil
}

func runDowngrade(cmd *cobra.Command, args []string) error {
	if downgradeOpts.list {
		fmt.Fprint(cmd.OutOrStdout(), rulesTable())
		return nil
	}
	s, err := input.Load(args[0], nil)
	if err != nil {
		return err
	}
	out, err := downgradeSpec(s, downgradeOpts.target, cmd.ErrOrStderr())
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return writeOutput(downgradeOpts.out, out.Marshal(nil))
}
