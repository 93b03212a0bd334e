package main

// btfkit diff: semantic, ID-independent comparison of two BTFs.

import (
	"bufio"
	"fmt"
	"os"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

var diffOpts struct {
	base         string
	baseB        string
	kinds        string
	excludeKinds string
	quiet        bool
}

var diffCmd = &cobra.Command{
	Use:   "diff [--base FILE] [--kinds K,...] [--exclude-kinds K,...] A B",
	Short: "Compare two BTFs by kind and name, independently of type IDs",
	Long: `diff compares two BTFs (raw or ELF .BTF) semantically: types are matched by
kind and name, anonymous types by their place under the named types that use
them, so two BTFs that differ only in type order compare equal. It lists each
difference ("- KIND name" only in A, "+ KIND name" only in B,
"~ KIND name: what: a -> b" changed, "# count KIND: a -> b"), then the number
of types of each kind, and exits with status 1 when anything differs.`,
	Example: `  # An encoder's output against pahole's, types only
  btfkit diff --exclude-kinds FUNC,FUNC_PROTO,VAR,DATASEC ours.btf pahole.btf

  # Two module BTFs split against the same vmlinux
  btfkit diff --base vmlinux a.ko b.ko`,
	Args: cobra.ExactArgs(2),
	RunE: runDiff,
}

func init() {
	f := diffCmd.Flags()
	f.StringVar(&diffOpts.base, "base", "", "base BTF `FILE` both inputs are split against")
	f.StringVar(&diffOpts.baseB, "base-b", "", "a different base `FILE` for B (default: --base)")
	f.StringVar(&diffOpts.kinds, "kinds", "", "compare only these `KINDS` (comma-separated, e.g. STRUCT,UNION)")
	f.StringVar(&diffOpts.excludeKinds, "exclude-kinds", "", "leave these `KINDS` out (e.g. FUNC,FUNC_PROTO,VAR,DATASEC)")
	f.BoolVarP(&diffOpts.quiet, "quiet", "q", false, "print nothing, only set the exit status")
	rootCmd.AddCommand(diffCmd)
}

func runDiff(cmd *cobra.Command, args []string) error {
	var opts diff.Options
	var err error
	if opts.Kinds, err = diff.ParseKinds(diffOpts.kinds); err != nil {
		return fmt.Errorf("--kinds: %w", err)
	}
	if opts.ExcludeKinds, err = diff.ParseKinds(diffOpts.excludeKinds); err != nil {
		return fmt.Errorf("--exclude-kinds: %w", err)
	}
	loadBase := func(p string) (*btf.Spec, error) {
		if p == "" {
			return nil, nil
		}
		b, err := input.Load(p, nil)
		if err != nil {
			return nil, fmt.Errorf("base: %w", err)
		}
		return b, nil
	}
	baseA, err := loadBase(diffOpts.base)
	if err != nil {
		return err
	}
	baseB := baseA
	if diffOpts.baseB != "" {
		if baseB, err = loadBase(diffOpts.baseB); err != nil {
			return err
		}
	}
	a, err := input.Load(args[0], baseA)
	if err != nil {
		return err
	}
	b, err := input.Load(args[1], baseB)
	if err != nil {
		return err
	}
	res := diff.Compare(a, b, opts)
	if !diffOpts.quiet {
		w := bufio.NewWriter(os.Stdout)
		if err := res.Write(w); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if !res.Equal() {
		return exitError{1}
	}
	return nil
}
