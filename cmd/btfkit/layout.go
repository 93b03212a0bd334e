package main

// `btfkit layout`: pahole's struct and union layouts (holes, padding,
// cache lines) from DWARF or BTF, byte for byte pahole 1.32's output; the
// printer is package layout. `btfkit pahole` without -J maps pahole's
// command line onto the same run (pahole_layout.go).
//
// Inputs are read by the listing itself (layout.Listing.ListFiles): each
// file with the first format of the list (-F, default dwarf then btf) it
// has. Without a file, the running kernel's BTF.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/layout"
	"github.com/btfkit/btfkit/pfunct"
)

var layoutOpts struct {
	classes   string
	hex       bool
	cacheline int
	formats   string
	base      string
	skip      bool
	jobs      int
	maxExpand int
}

var layoutCmd = &cobra.Command{
	Use:   "layout [flags] [FILE...]",
	Short: "Struct and union layouts with holes, padding and cache lines (pahole's output)",
	Long: `layout prints the layout of every named struct and union of the inputs, or of
the types named with -C, as pahole 1.32 prints it: each member with its offset and
size, bitfields, holes and bit holes, trailing padding, cache line boundaries and a
summary, with the __packed__ and __aligned__ attributes pahole infers.

A FILE is an ELF file with DWARF (vmlinux, a module, an object file; .ko.xz and
.ko.zst too), an ELF file with a .BTF section, or raw BTF (a BTF archive prints
every member). Each FILE is read in the first format of -F/--from it has; DWARF
is read compile unit by compile unit, and a type already printed from an earlier
unit or file is not printed again. Without FILE, the running kernel's BTF
(/sys/kernel/btf/vmlinux).`,
	Example: `  # One struct of the running kernel
  btfkit layout -C task_struct

  # Every struct of a debug vmlinux, from its DWARF
  btfkit layout /usr/lib/debug/boot/vmlinux-$(uname -r)

  # A module's split BTF against its base
  btfkit layout -F btf --base /sys/kernel/btf/vmlinux xfs.ko`,
	Args: cobra.ArbitraryArgs,
	RunE: func(cmd *cobra.Command, args []string) error {
		var o layout.Options
		o.Hex = layoutOpts.hex
		o.CachelineSize = layoutOpts.cacheline
		o.SkipMissing = layoutOpts.skip
		o.MaxPointerExpansions = layoutOpts.maxExpand
		o.ExpansionsCut = expansionsCutNote(cmd.ErrOrStderr(), layoutOpts.maxExpand)
		layoutPrintApply(&o) // pahole_layout_print.go
		if layoutOpts.classes != "" {
			names, err := layoutClassNames(layoutOpts.classes)
			if err != nil {
				return err
			}
			o.ClassNames = names
		}
		for _, hook := range layoutFlagHooks {
			if err := hook(cmd, &o); err != nil {
				return err
			}
		}
		formats, err := input.ParseFormats(layoutOpts.formats)
		if err != nil {
			return err
		}
		listing := layout.NewListing(o)
		w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
		err = listing.ListFiles(w, args, layoutFileInputs(formats, layoutOpts.base, layoutOpts.jobs, cmd.ErrOrStderr(), nil))
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		var ni *layout.NoInfoError
		if errors.As(err, &ni) && ni.Missing != nil && !strings.ContainsAny(ni.Path, "/.") {
			// `btfkit layout sk_buff`: a type name where a file goes.
			return fmt.Errorf("%w (to list a type, name it with -C: btfkit layout -C %s [FILE]; without a FILE, the running kernel's BTF)", err, ni.Path)
		}
		if err != nil {
			return err
		}
		if name, ok := listing.Unfound(); ok {
			// The inputs' error form, FILE: what went wrong; with
			// --sort too, where pahole says nothing.
			files := args
			if len(files) == 0 {
				files = []string{filepath.Join(btf.SysfsDir, "vmlinux")}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "btfkit layout: %s: type '%s' not found\n", strings.Join(files, ", "), name)
			return exitError{1}
		}
		return nil
	},
}

func init() {
	f := layoutCmd.Flags()
	f.StringVarP(&layoutOpts.classes, "class", "C", "", "print only the types named in `LIST` (comma separated; @FILE reads names, one a line)")
	f.BoolVar(&layoutOpts.hex, "hex", false, "print offsets and sizes in hexadecimal")
	f.IntVarP(&layoutOpts.cacheline, "cacheline-size", "c", 0, "cache line size in `bytes` (default: the machine's)")
	f.StringVarP(&layoutOpts.formats, "from", "F", "dwarf,btf", "debug formats to read, tried in order (`LIST` of dwarf, btf)")
	addInputFormatAliases(f)
	// --format was layout's spelling of -F until --format came to mean
	// the output format everywhere (dump, pretty): kept for scripts.
	addFlagAlias(f, "from", "format", "use -F/--from; --format names the output format in dump and pretty")
	f.StringVar(&layoutOpts.base, "base", "", "base BTF `FILE` for split BTF inputs (modules)")
	f.BoolVar(&layoutOpts.skip, "skip-missing", false, "with -C: go on with the next name when one is missing from an input")
	f.IntVarP(&layoutOpts.jobs, "jobs", "j", 0, "DWARF compile units converted in parallel (default: one per CPU; the output does not depend on it)")
	f.IntVar(&layoutOpts.maxExpand, "max-expansions", 0, fmt.Sprintf("with -p, print at most `N` pointed-to types in place per type, then pointers as pointers (0: %d; -1: no bound, pahole's endless output on pointer cycles)", layout.DefaultMaxPointerExpansions))
	rootCmd.AddCommand(layoutCmd)
}

// layoutFlagHooks set the options of the flags other files add to
// layoutCmd (each file's init appends its hook), after -C, --hex and -c.
var layoutFlagHooks []func(cmd *cobra.Command, o *layout.Options) error

// layoutClassNames splits a -C list: names separated by commas; @FILE (or
// pahole's file://FILE) reads names from FILE, one a line.
func layoutClassNames(list string) ([]string, error) {
	var names []string
	for _, s := range strings.Split(list, ",") {
		file, ok := strings.CutPrefix(s, "@")
		if !ok {
			file, ok = strings.CutPrefix(s, "file://")
		}
		if !ok {
			names = append(names, s)
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if line == "" {
				continue
			}
			// pahole drops each line's last byte, its newline.
			names = append(names, line[:len(line)-1])
		}
	}
	return names, nil
}

// layoutFileInputs is how btfkit layout and btfkit pahole read their files:
// -F, --base, -j, the DWARF loader's warnings on stderr, -m's functions
// read by pfunct's loader and, when set, --ptr_table_stats.
func layoutFileInputs(formats input.Formats, base string, jobs int, stderr io.Writer, tables *tableStats) layout.Inputs {
	in := layout.Inputs{Formats: formats, BasePath: base, Jobs: jobs, Warnings: stderr, UnitFunctions: pfunct.EachUnitFunctions}
	if tables != nil {
		in.Stats = tables
	}
	return in
}

// expansionsCutNote says on w that a -p listing stopped expanding
// pointers (layout.Options.ExpansionsCut).
func expansionsCutNote(w io.Writer, max int) func(string) {
	if max <= 0 {
		max = layout.DefaultMaxPointerExpansions
	}
	return func(name string) {
		fmt.Fprintf(w, "btfkit: -p: %s: printed %d pointed-to types in place, then pointers as pointers (its pointers lead from struct to struct without end; layout --max-expansions changes the bound)\n", name, max)
	}
}
