package main

// btfkit sort: order BTF by name as the kernel's build does.

import (
	"fmt"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/input"
	"github.com/spf13/cobra"
)

var sortOpts struct {
	base, onto, out string
}

var sortCmd = &cobra.Command{
	Use:   "sort [--base FILE [--onto SORTED]] -o OUT FILE",
	Short: "Order BTF types by name, as Linux 7.0's resolve_btfids does",
	Long: `sort writes FILE's BTF with its types ordered by name, as the kernel's build
orders vmlinux and module BTF since Linux 7.0 (tools/bpf/resolve_btfids):
names compared byte by byte (strcmp), so the anonymous types come first;
types of the same name keep their order; every reference is rewritten and
the string table is kept as it is. The kernel binary-searches sorted BTF
for names, and so does libbpf when it finds the order (btf__find_by_name_kind).

FILE may be raw BTF or an ELF file's .BTF. Split BTF (a module's) needs
its base: --base FILE, or the module's own .BTF.base (distilled base) when
it has one; only the module's own types move, the base stays as it is.

--onto SORTED moves a module's BTF, split against --base, onto another
base with the same types, such as the sorted --base, as btfkit rebase
does (distilled against --base, relocated onto SORTED: libbpf's
btf__distill_base and btf__relocate), then sorted. That is how a module
built against an unsorted vmlinux gets references into the sorted one.

Sorting sorted BTF changes nothing. The output is raw BTF, written through a
temporary file and a rename.`,
	Example: `  btfkit sort -o vmlinux.sorted.btf vmlinux
  btfkit sort --base vmlinux.btf --onto vmlinux.sorted.btf -o xfs.sorted.btf xfs.ko`,
	Args: cobra.ExactArgs(1),
	RunE: runSort,
}

func init() {
	f := sortCmd.Flags()
	f.StringVar(&sortOpts.base, "base", "", "base BTF `FILE` (raw or ELF) of a split FILE")
	f.StringVar(&sortOpts.onto, "onto", "", "move the split BTF onto this base `FILE` (raw or ELF), such as the sorted --base")
	f.StringVarP(&sortOpts.out, "output", "o", "", "write the sorted BTF to `OUT` (required; - for standard output)")
	sortCmd.MarkFlagRequired("output")
	rootCmd.AddCommand(sortCmd)
}

// loadMaybeSplit reads path's BTF against base; without a base, an ELF
// file's .BTF.base (a distilled base) is used when it has one.
func loadMaybeSplit(path string, base *btf.Spec) (*btf.Spec, error) {
	if base == nil {
		// A file that is not ELF, or has no .BTF.base, is read as it
		// is; LoadFile reports what is wrong with it.
		if raw, err := elfx.ReadSection(path, ".BTF.base"); err == nil {
			b, err := btf.Parse(raw, nil)
			if err != nil {
				return nil, fmt.Errorf("%s: .BTF.base: %w", path, err)
			}
			base = b
		}
	}
	return input.Load(path, base)
}

func runSort(cmd *cobra.Command, args []string) error {
	var base *btf.Spec
	if sortOpts.base != "" {
		b, err := input.Load(sortOpts.base, nil)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		base = b
	} else if sortOpts.onto != "" {
		return fmt.Errorf("--onto needs --base, the base FILE is split against")
	}
	s, err := loadMaybeSplit(args[0], base)
	if err != nil {
		return err
	}
	if sortOpts.onto != "" {
		onto, err := input.Load(sortOpts.onto, nil)
		if err != nil {
			return fmt.Errorf("--onto: %w", err)
		}
		if s, err = distill.Rebase(s, onto); err != nil {
			return fmt.Errorf("%s onto %s: %w", args[0], sortOpts.onto, err)
		}
	}
	sorted, _ := btf.SortByName(s)
	return writeOutput(sortOpts.out, sorted.Marshal(nil))
}
