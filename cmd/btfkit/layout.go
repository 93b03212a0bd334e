package main

// `btfkit layout`: pahole's struct and union layouts (holes, padding,
// cache lines) from DWARF or BTF, byte for byte pahole 1.32's output; the
// printer is package layout. `btfkit pahole` without -J maps pahole's
// command line onto the same run (pahole_layout.go).
//
// Inputs are read as pahole reads them: each file with the first format
// of the list (-F, default dwarf then btf) it has; DWARF compile unit by
// compile unit through the encoder (encode.EachUnit), BTF whole (a split
// BTF with its base: --base, or /sys/kernel/btf/vmlinux for a module under
// /sys/kernel/btf) and a BTF archive member by member. Without a file, the
// running kernel's BTF.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/layout"
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
		r := layoutRun{opts: o, formats: formats, base: layoutOpts.base, jobs: layoutOpts.jobs, warn: cmd.ErrOrStderr()}
		w := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<16)
		err = r.run(w, args)
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		var ni *errNoInfo
		if errors.As(err, &ni) && ni.missing != nil && !strings.ContainsAny(ni.path, "/.") {
			// `btfkit layout sk_buff`: a type name where a file goes.
			return fmt.Errorf("%w (to list a type, name it with -C: btfkit layout -C %s [FILE]; without a FILE, the running kernel's BTF)", err, ni.path)
		}
		if err != nil {
			return err
		}
		if name, ok := r.listing.Missing(); ok {
			return fmt.Errorf("type '%s' not found", name)
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

// layoutRun is one listing over files.
type layoutRun struct {
	opts    layout.Options
	formats input.Formats // formats to try, in order
	base    string        // base BTF for split BTF inputs
	jobs    int           // DWARF units converted in parallel; 0: one per CPU
	tables  *tableStats   // --ptr_table_stats (pahole_stats.go), or nil
	listing *layout.Listing
	baseBTF *btf.Spec
	btfErr  error     // why the last file's BTF could not be parsed
	warn    io.Writer // the DWARF loader's warnings (stderr)
}

// errNoInfo says a file is missing or has none of the formats asked for.
type errNoInfo struct {
	path    string
	formats input.Formats
	missing error // the file cannot be read
	// unsupported: pahole's loader gave up at a format it has no
	// loader for (input.Unknown)
	unsupported bool
	reason      error // why the file's BTF could not be read, if it has some
}

func (e *errNoInfo) Error() string {
	if e.missing != nil {
		return e.missing.Error()
	}
	if e.reason != nil {
		return e.reason.Error()
	}
	names := make([]string, len(e.formats))
	for i, f := range e.formats {
		names[i] = f.String()
	}
	return fmt.Sprintf("%s: no %s type information", e.path, strings.Join(names, " or "))
}

// errStop ends a walk early: every -C name was found.
var errStop = errors.New("all types found")

func (r *layoutRun) run(w io.Writer, files []string) error {
	r.listing = layout.NewListing(r.opts)
	if r.base != "" {
		b, err := input.Load(r.base, nil)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		r.baseBTF = b
	}
	if len(files) == 0 {
		files = []string{filepath.Join(btf.SysfsDir, "vmlinux")}
		if !r.formats.Has(input.BTF) {
			return fmt.Errorf("no FILE given: the running kernel's BTF needs -F btf")
		}
		r.formats = input.Formats{input.BTF}
	}
	for _, path := range files {
		stop, err := r.file(w, path)
		if err != nil {
			return err
		}
		if stop {
			break
		}
	}
	return r.listing.Finish(w)
}

// file lists one file in the first format it has.
func (r *layoutRun) file(w io.Writer, path string) (stop bool, err error) {
	if err := input.Readable(path); err != nil {
		return false, &errNoInfo{path: path, formats: r.formats, missing: err}
	}
	for _, f := range r.formats {
		var ok bool
		switch f {
		case input.DWARF:
			// DWARF is read in place: standard input and pipes have
			// only their BTF read (whole).
			if !input.IsStream(path) {
				ok, stop, err = r.dwarfFile(w, path)
			}
		case input.BTF:
			ok, stop, err = r.btfFile(w, path)
		case input.CTF:
			// pahole's CTF loader; btfkit reads no CTF: next format.
		default:
			// pahole gives up at a format it has no loader for.
			return false, &errNoInfo{path: path, formats: r.formats, unsupported: true}
		}
		if err != nil || ok {
			return stop, err
		}
	}
	return false, &errNoInfo{path: path, formats: r.formats, reason: r.btfErr}
}

// dwarfFile lists the compile units of an ELF file with DWARF; ok is false
// when the file has no DWARF.
func (r *layoutRun) dwarfFile(w io.Writer, path string) (ok, stop bool, err error) {
	// The live heap is small (the units in flight and the keys listed:
	// ~30 MiB for the Debian vmlinux) and the garbage large (every unit's
	// Spec and types): collecting at 5x live instead of 2x takes a third
	// off the CPU time there for ~100 MiB more peak RSS (~330 MiB in all,
	// the file's mapped pages included; pahole 1.31 peaks at 2.6 GiB).
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	// The units are converted and prepared for the listing in parallel,
	// and written in unit order (layout.Batch says which options print
	// in parallel too).
	if r.opts.NrMethods && len(r.opts.ClassNames) == 0 {
		return r.dwarfMethods(w, path) // pahole_stats.go
	}
	counts, err := r.tables.dwarf(path, r.jobs) // pahole_stats.go
	if err != nil {
		return false, false, ignoreNoDWARF(err)
	}
	batch := r.listing.NewBatch()
	type prepared struct {
		p     *layout.Prepared
		index int
		name  string
	}
	err = encode.MapUnits(path, encode.Options{Features: encode.DefaultFeatures, Jobs: r.jobs, Warnings: r.warn,
		// -D compares declaration files; -I prints them; -P names an
		// anonymous struct without a typedef by its declaration.
		DeclInfo: r.opts.DeclExcludePrefix != nil || r.opts.ShowDeclInfo || (r.opts.Packable && r.opts.AnonInclude)},
		func(u encode.Unit) (prepared, error) {
			return prepared{batch.Prepare(u.Index, u.Name, u.Spec, u.Facts), u.Index, u.Name}, nil
		}, func(u prepared) error {
			r.tables.print(r.listing, u.name, counts, u.index)
			s, err := batch.Write(w, u.p)
			if err != nil {
				return err
			}
			if s {
				return errStop
			}
			return nil
		})
	switch {
	case errors.Is(err, encode.ErrNoDWARF):
		return false, false, nil
	case errors.Is(err, errStop):
		return true, true, nil
	}
	return true, false, err
}

// btfFile lists the BTF of a raw BTF file or of an ELF file's .BTF
// section, every member of an archive; ok is false when there is none.
func (r *layoutRun) btfFile(w io.Writer, path string) (ok, stop bool, err error) {
	// The members with their bases (package input: a sysfs module's
	// vmlinux, a module's .BTF.base relocated onto --base).
	ms, err := input.Members(path, r.baseBTF)
	if err != nil {
		// A file without BTF has none to list; one whose BTF cannot be
		// used (a .BTF.base that does not fit the base) says why.
		if _, _, rerr := input.ReadBytes(path); rerr == nil {
			r.btfErr = err
		}
		return false, false, nil
	}
	where := ms[0].Where
	if len(ms) == 1 {
		// Members hands bytes that are no clean archive back whole.
		if _, _, _, err := btf.ParseHeader(ms[0].Raw); err != nil {
			return false, false, nil
		}
		if _, err := btf.SplitArchive(ms[0].Raw); err != nil {
			r.btfErr = fmt.Errorf("%s: %w", where, err)
			return false, false, nil
		}
	}
	// Parse every member first: pahole reads a file whole or not at all.
	specs := make([]*btf.Spec, len(ms))
	for i, m := range ms {
		s, err := btf.Parse(m.Raw, m.Base)
		if err != nil {
			if m.Base == nil && input.LooksSplit(m.Raw) {
				err = fmt.Errorf("%w (this is split BTF, a module's: give its base)", err)
			}
			if len(ms) > 1 {
				err = fmt.Errorf("archive member %d: %w", i, err)
			}
			r.btfErr = fmt.Errorf("%s: %w", where, err)
			return false, false, nil
		}
		specs[i] = s
	}
	for _, s := range specs {
		r.tables.printBTF(r.listing, path, s) // pahole_stats.go
		// pahole names a BTF input's unit by the file's path.
		if stop, err := r.listing.NamedUnitFunctions(w, path, s, nil, nil); err != nil || stop {
			return true, stop, err
		}
	}
	return true, false, nil
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
