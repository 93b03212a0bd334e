package main

// btfkit finalize, and encode --finalize: Linux 7.x's resolve_btfids --btf.

import (
	"fmt"
	"io"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/finalize"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// finalizeFlags are the options finalize and encode --finalize share.
type finalizeFlags struct {
	distill bool
	idsOut  string
	baseOut string
}

var finalizeOpts struct {
	finalizeFlags
	base, out string
}

var finalizeCmd = &cobra.Command{
	Use:   "finalize [--base B] [--distill-base] -o OUT [--ids-out IDS] [--base-out BASE] IN ELF",
	Short: "Turn pahole's BTF into the BTF a Linux 7.x build embeds (resolve_btfids --btf)",
	Long: `finalize does to the BTF IN what Linux 7.x's build does to pahole's output
before linking it into vmlinux or a module (scripts/gen-btf.sh, which runs
'resolve_btfids --btf IN ELF'), following Linux 7.2's tools/bpf/resolve_btfids:

  - every kfunc (FUNC tagged bpf_kfunc) that ELF's .BTF_ids lists in a
    BTF_SET8 with KF_IMPLICIT_ARGS gets an _impl twin with the full
    prototype and its decl tags (unless the source has one), and its own
    prototype loses the implicit arguments (struct bpf_prog_aux *,
    struct btf_struct_meta *) and those after them;
  - with --distill-base (out-of-tree modules), the base is distilled, as
    libbpf's btf__distill_base does (see btfkit encode's distilled_base);
  - the types are sorted by name (btfkit sort).

OUT gets the BTF (raw; resolve_btfids' ELF.BTF), --ids-out the contents of
.BTF_ids with every BTF_ID resolved against it and its sets sorted
(ELF.BTF_ids, which the build patches into ELF), --base-out the distilled
base (ELF.BTF.base). IN may be raw BTF or an ELF file's .BTF; B (raw or
ELF, such as vmlinux) is the base of a module's split BTF. ELF is the
file IN was made from (.tmp_vmlinux1, a module) as the linker left it:
its .BTF_ids must not be resolved yet (a built vmlinux's or module's is,
and is refused). Without .BTF_ids, finalize only sorts (and distills).

Names resolve_btfids warns about (unresolved, or found twice) are printed
to standard error as it prints them.`,
	Example: `  btfkit finalize -o vmlinux.btf --ids-out vmlinux.btf_ids .tmp_vmlinux1.BTF.1 .tmp_vmlinux1
  btfkit finalize --base vmlinux --distill-base -o m.btf --base-out m.btf.base m.ko.BTF.1 m.ko`,
	Args: cobra.ExactArgs(2),
	RunE: runFinalize,
}

func init() {
	f := finalizeCmd.Flags()
	f.StringVar(&finalizeOpts.base, "base", "", "base BTF `FILE` (raw or ELF) of a split IN")
	f.StringVarP(&finalizeOpts.out, "output", "o", "", "write the BTF to `OUT` (required)")
	finalizeOpts.finalizeFlags.add(f, "distill-base", "ids-out", "base-out")
	finalizeCmd.MarkFlagRequired("output")
	rootCmd.AddCommand(finalizeCmd)
	addEncodeFinalizeFlags(encodeCmd.Flags())
}

func (o *finalizeFlags) add(f *pflag.FlagSet, distill, ids, base string) {
	f.BoolVar(&o.distill, distill, false, "distill the base, as resolve_btfids --distill_base does for out-of-tree modules")
	f.StringVar(&o.idsOut, ids, "", "write the resolved .BTF_ids contents to `FILE`")
	f.StringVar(&o.baseOut, base, "", "write the distilled base BTF to `FILE`")
}

func runFinalize(cmd *cobra.Command, args []string) error {
	var base *btf.Spec
	if finalizeOpts.base != "" {
		b, err := btf.LoadFile(finalizeOpts.base, nil)
		if err != nil {
			return fmt.Errorf("--base: %w", err)
		}
		base = b
	}
	s, err := btf.LoadFile(args[0], base)
	if err != nil {
		return err
	}
	out, err := finalizeOpts.finalizeFlags.run(s, args[1], cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	return writeOutput(finalizeOpts.out, out.Marshal(nil))
}

// run finalizes s with elfPath's .BTF_ids, writes --ids-out and
// --base-out, prints the warnings, and returns the BTF.
func (o *finalizeFlags) run(s *btf.Spec, elfPath string, stderr io.Writer) (*btf.Spec, error) {
	if o.baseOut != "" && !o.distill {
		return nil, fmt.Errorf("a distilled base (--base-out) is made only with --distill-base")
	}
	ids, err := finalize.ReadIDs(elfPath)
	if err != nil {
		return nil, err
	}
	r, err := finalize.Finalize(s, ids, finalize.Options{DistillBase: o.distill})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", elfPath, err)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(stderr, "WARN: %s\n", w)
	}
	if o.idsOut != "" {
		if r.IDs == nil {
			return nil, fmt.Errorf("%s has no .BTF_ids (or no symbols): no %s to write", elfPath, o.idsOut)
		}
		if err := writeOutput(o.idsOut, r.IDs); err != nil {
			return nil, err
		}
	}
	if o.baseOut != "" {
		if err := writeOutput(o.baseOut, r.Base.Marshal(nil)); err != nil {
			return nil, err
		}
	}
	return r.BTF, nil
}
