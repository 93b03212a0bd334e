package main

// btfkit encode: DWARF to BTF, as pahole -J does.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/btfkit/btfkit/encode"
	"github.com/spf13/cobra"
)

var encodeOpts struct {
	out         string
	jobs        int
	features    string
	langExclude string
	verbose     bool
	quiet       bool // no progress bar, no batch summary (progress.go)
	listFeat    bool
	from        string // dwarf or btf (encode_frombtf.go)
	stats       bool   // encode_stats.go
	sort        bool   // encode_post.go
	target      string // encode_post.go
}

var encodeCmd = &cobra.Command{
	Use:   "encode [-j N] [--features LIST] [--lang-exclude LIST] -o OUT FILE",
	Short: "Encode the DWARF of an ELF file (vmlinux, module, object) as raw BTF",
	Long: `encode converts the DWARF debug info of FILE to BTF the way pahole -J does and
writes it as raw BTF to OUT (through a temporary file and a rename; a device
or pipe such as /dev/stdout is written to directly). FILE may be a compressed
module (.ko.xz, .ko.zst, .ko.gz).

Every compile unit is converted on its own, -j at a time; the pieces are merged
in unit order and deduplicated, so the output does not depend on -j.

--features takes pahole's --btf_features names: "default" (the default), a
comma-separated list ("float,enum64"), or "+name,..." for the default set plus
those. Known names: ` + strings.Join(encode.FeatureNames, ", ") + `.
So 'btfkit encode -o OUT vmlinux' means what
'pahole -J --btf_features=default --btf_encode_detached=OUT vmlinux' means.
Unknown names are an error (pahole's --btf_features_strict);
--supported-features lists the known ones. "layout" adds libbpf v1.8's kind
layout section to base BTF (not to split BTF, as pahole); the kernel (6.18
included) refuses to load BTF that has one.

When standard error is a terminal and -q is not given, a progress bar
shows the compile units converted of all, the rate and the time left.

With -v, encode also prints to standard output every function that has DWARF
and an address but got no FUNC, one "NAME: REASON" line each, sorted by name,
then one "# COUNT REASON" line per reason. The reasons are pahole's:
"unexpected register usage for parameter", "inconsistent prototype",
"uncertain parameter location", "reordered parameters", "optimized
parameters", "ambiguous address"; and "unnamed parameters", "no ELF function
symbol" for functions pahole never considers.

With --from btf, encode reads no DWARF: it merges the members of FILE's .BTF
(the BTF archive that a linker makes of objects compiled with BTF, such as
gcc -gbtf; or a single BTF), fixes what the compiler's BTF gets wrong for
the kernel with FILE's section and symbol tables, decides functions and
variables again by the same rules, and deduplicates: pahole -J -F btf. What
BTF does not carry is not done: parameter locations (optimized, reordered
or unexpectedly placed parameters, true_signature) and --lang-exclude.`,
	Example: `  btfkit encode -o vmlinux.btf vmlinux
  btfkit encode -j2 --features=+global_var --lang-exclude=rust -o vmlinux.btf vmlinux`,
	Args: func(cmd *cobra.Command, args []string) error {
		if encodeOpts.listFeat {
			return cobra.NoArgs(cmd, args)
		}
		if encodeModulesMode() { // --base, --out-dir, --in-place: encode_batch.go
			return checkEncodeModulesArgs(args)
		}
		if encodeOpts.out == "" {
			return fmt.Errorf(`required flag(s) "output" not set`)
		}
		if encodeOpts.out == "-" && encodeOpts.verbose {
			return fmt.Errorf("-o - writes the BTF to standard output, where -v lists the functions left out: write the BTF to a file")
		}
		return cobra.ExactArgs(1)(cmd, args)
	},
	RunE: runEncode,
}

func init() {
	f := encodeCmd.Flags()
	f.StringVarP(&encodeOpts.out, "output", "o", "", "write raw BTF to `OUT` (required; - for standard output)")
	f.IntVarP(&encodeOpts.jobs, "jobs", "j", runtime.NumCPU(), "convert up to `N` compile units at once (the output does not depend on it)")
	f.StringVar(&encodeOpts.features, "features", "default", "BTF features, pahole's --btf_features `LIST`")
	f.StringVar(&encodeOpts.langExclude, "lang-exclude", "", "skip compile units in these `LANGUAGES` (pahole names: rust, c++, asm, ...)")
	f.BoolVarP(&encodeOpts.verbose, "verbose", "v", false, "print counts and timings to stderr, and the functions left out, with reasons, to stdout")
	f.BoolVarP(&encodeOpts.quiet, "quiet", "q", false, "show no progress bar on a terminal and no summary of a module batch; errors are still printed")
	f.BoolVar(&encodeOpts.listFeat, "supported-features", false, "list the known --features names, one per line, and exit")
	f.StringVarP(&encodeOpts.from, "from", "F", "dwarf", "what to read: `dwarf`, or btf for the .BTF archive that objects compiled with BTF (gcc -gbtf) leave (see 'btfkit help encode')")
	addInputFormatAliases(f)
	addEncodePostFlags(f)
	rootCmd.AddCommand(encodeCmd)
}

func runEncode(cmd *cobra.Command, args []string) error {
	if encodeOpts.listFeat {
		for _, n := range encode.FeatureNames {
			fmt.Fprintln(cmd.OutOrStdout(), n)
		}
		return nil
	}
	if encodeModulesMode() {
		if encodeOpts.from != "dwarf" {
			return fmt.Errorf("--from %s: only with one input and -o", encodeOpts.from)
		}
		if err := checkEncodePostModules(); err != nil {
			return err
		}
		return runEncodeModules(args, cmd.OutOrStdout(), cmd.ErrOrStderr())
	}
	switch encodeOpts.from {
	case "dwarf":
	case "btf":
		return runEncodeFromBTF(cmd, args[0]) // encode_frombtf.go
	default:
		return fmt.Errorf("--from: %q is neither dwarf nor btf", encodeOpts.from)
	}
	t0 := time.Now()
	feat, langs, err := encodeFlags()
	if err != nil {
		return err
	}
	// The merged types live outside the Go heap (dedup.Stream); the
	// heap is the walk's per-unit state and the function candidates,
	// ~65 MB live on a kernel. Collecting at 1.5x live instead of 2x
	// trims ~10 MiB of the peak at no measurable CPU cost.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	var rep *encode.Report
	if encodeOpts.verbose {
		rep = new(encode.Report)
	}
	stats := newEncodeStats()
	prog := unitProgress(os.Stderr)
	spec, err := encode.EncodeFile(args[0], encode.Options{Features: feat, Jobs: encodeOpts.jobs, LangExclude: langs, Report: rep, Stats: stats.encoderStats(), Progress: prog.units, Warnings: cmd.ErrOrStderr()})
	prog.done()
	if errors.Is(err, encode.ErrExcluded) {
		// Nothing to encode: no output, as pahole writes none.
		fmt.Fprintf(os.Stderr, "btfkit encode: %v; %s not written\n", err, encodeOpts.out)
		return nil
	}
	if err != nil {
		return err
	}
	if spec, err = encodePost(spec, os.Stderr); err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	if spec, err = encodeFinalize(spec, args[0], os.Stderr); err != nil { // encode_finalize.go
		return err
	}
	t1 := time.Now()
	if err := stats.timeWrite(func() error { return writeOutput(encodeOpts.out, spec.Marshal(nil)) }); err != nil {
		return err
	}
	stats.print(os.Stderr)
	if encodeOpts.verbose {
		writeSkipReport(cmd.OutOrStdout(), rep)
		fmt.Fprintf(os.Stderr, "btfkit encode: %s: %d types, %d functions encoded, %d left out, encode %v, write %v\n",
			args[0], spec.NumTypes(), rep.Encoded, len(rep.Skipped), t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
	}
	return nil
}

// writeSkipReport prints the functions left out, one per line, then a
// count per reason.
func writeSkipReport(w io.Writer, rep *encode.Report) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	counts := map[string]int{}
	for _, s := range rep.Skipped {
		fmt.Fprintf(bw, "%s: %s\n", s.Name, s.Reason)
		counts[s.Reason]++
	}
	reasons := make([]string, 0, len(counts))
	for r := range counts {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(bw, "# %d %s\n", counts[r], r)
	}
}

// encodeFlags parses --features and --lang-exclude, for one file or many.
func encodeFlags() (encode.Features, []uint16, error) {
	feat, unknown, err := encode.ParseFeatures(encodeOpts.features)
	if err != nil {
		return 0, nil, fmt.Errorf("--features: %w", err)
	}
	if len(unknown) > 0 {
		return 0, nil, fmt.Errorf("--features: unknown feature(s) %s; known: %s", strings.Join(unknown, ", "), strings.Join(encode.FeatureNames, ", "))
	}
	langs, err := encode.ParseLanguages(encodeOpts.langExclude)
	if err != nil {
		return 0, nil, fmt.Errorf("--lang-exclude: %w", err)
	}
	return feat, langs, nil
}
