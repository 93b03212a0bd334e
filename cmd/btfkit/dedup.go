package main

// btfkit dedup: merge BTF inputs and deduplicate them (libbpf semantics).

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

var dedupOpts struct {
	base     string
	out      string
	jobs     int
	keepVars bool
	verbose  bool
}

var dedupCmd = &cobra.Command{
	Use:   "dedup [--base FILE] -o OUT INPUT...",
	Short: "Merge raw BTF, ELF .BTF sections and BTF archives, deduplicate, write raw BTF",
	Long: `dedup reads every INPUT (raw BTF, the .BTF section of an ELF file, or a BTF
archive: several BTF blobs back to back, as 'ld -r' leaves them; each member
is one input), concatenates them in order, deduplicates the result with
libbpf's btf__dedup semantics and writes raw BTF to OUT. With --base the
inputs are split BTF against that base and so is the output (module BTF).
OUT is written to a temporary file and renamed, never left half-written (a
device or pipe such as /dev/stdout is written to directly).`,
	Example: `  # Two per-object BTFs into one
  btfkit dedup -o all.btf a.o b.o

  # A module's BTF against vmlinux
  btfkit dedup --base vmlinux -o mod.btf mod.ko`,
	Args: cobra.MinimumNArgs(1),
	RunE: runDedup,
}

func init() {
	f := dedupCmd.Flags()
	f.StringVar(&dedupOpts.base, "base", "", "base BTF `FILE` (raw or ELF) the inputs are split against")
	f.StringVarP(&dedupOpts.out, "output", "o", "", "write the result to `OUT` (required; - for standard output)")
	f.IntVarP(&dedupOpts.jobs, "jobs", "j", runtime.GOMAXPROCS(0), "parse up to `N` inputs at once (the output does not depend on it)")
	f.BoolVar(&dedupOpts.keepVars, "keep-duplicate-vars", false, "never merge VAR and DATASEC types (libbpf's behaviour)")
	f.BoolVarP(&dedupOpts.verbose, "verbose", "v", false, "print counts and timings to stderr")
	dedupCmd.MarkFlagRequired("output")
	rootCmd.AddCommand(dedupCmd)
}

func runDedup(cmd *cobra.Command, args []string) error {
	t0 := time.Now()
	var base *btf.Spec
	if dedupOpts.base != "" {
		b, err := input.Load(dedupOpts.base, nil)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		base = b
	}
	specs, err := dedup.LoadMembers(args, base, dedupOpts.jobs)
	if err != nil {
		return err
	}
	t1 := time.Now()
	opts := dedup.Options{KeepDuplicateVars: dedupOpts.keepVars}
	nIn := 0
	for _, s := range specs {
		nIn += s.NumTypes()
	}
	var out *btf.Spec
	if base == nil {
		// The same bytes as Dedup(Merge(...)), without the merged copy.
		out, _, err = dedup.MergeDedup(specs, opts)
	} else {
		var merged *btf.Spec
		if merged, err = dedup.Merge(specs...); err != nil {
			return err
		}
		out, _, err = dedup.Dedup(merged, opts)
	}
	if err != nil {
		// Type IDs are those of the inputs one after the other.
		return fmt.Errorf("%s: %w", strings.Join(args, ", "), err)
	}
	t2 := time.Now()
	if err := writeOutput(dedupOpts.out, out.Marshal(nil)); err != nil {
		return err
	}
	if dedupOpts.verbose {
		fmt.Fprintf(os.Stderr, "btfkit dedup: %d members, %d types in, %d types out; load %v, dedup %v, write %v\n",
			len(specs), nIn, out.NumTypes(), t1.Sub(t0).Round(time.Millisecond),
			t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
	}
	return nil
}
