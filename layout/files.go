package layout

// Files: a listing over files, read as pahole's loader reads them for a
// layout (what `btfkit layout` and `btfkit pahole` without -J run).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarffacts"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/input"
)

// Inputs says how ListFiles reads its files.
type Inputs struct {
	// Formats are the formats to try on each file, in order
	// (input.ParseFormats or, under pahole's name, input.PaholeFormats);
	// nil is input.DefaultFormats. A file is read in the first it has;
	// input.CTF never matches, input.Unknown stops the search.
	Formats input.Formats
	// BasePath is the base BTF of split BTF inputs (modules), read with
	// input.Load; without it a module under /sys/kernel/btf has
	// vmlinux for base and an ELF with .BTF.base its own.
	BasePath string
	// Jobs is how many DWARF units are converted at a time (0: one per
	// CPU); the output does not depend on it.
	Jobs int
	// Warnings gets the DWARF loader's warnings (nil: none).
	Warnings io.Writer
	// UnitFunctions reads the units of a DWARF file with each unit's
	// functions, for Options.NrMethods (pfunct.EachUnitFunctions); it
	// returns encode.ErrNoDWARF for a file without DWARF. Without it,
	// NrMethods lists DWARF files as without methods.
	UnitFunctions func(path string, jobs int, fn func(UnitFunctions) error) error
	// Stats, when set, is told of each unit before it is listed
	// (pahole's --ptr_table_stats).
	Stats UnitStats
}

// UnitFunctions is one DWARF unit with its functions' parameters, for
// NrMethods (NamedUnitFunctions).
type UnitFunctions struct {
	Index  int // the unit's position in the file, from 0
	Name   string
	Spec   *btf.Spec
	Facts  *dwarffacts.Facts
	Params [][]btf.TypeID
}

// UnitStats is told of the units ListFiles lists, the ones the listing
// leaves out (Options.CUExcludePrefix) excepted.
type UnitStats interface {
	// DWARFFile is called before the units of a DWARF file are read.
	DWARFFile(path string, jobs int) error
	// DWARFUnit is called before unit index of the last DWARFFile is
	// listed.
	DWARFUnit(name string, index int)
	// BTFUnit is called before a BTF (a file, or an archive member) is
	// listed.
	BTFUnit(name string, s *btf.Spec)
}

// NoInfoError is a file ListFiles could not read: missing, or with none
// of the formats asked for.
type NoInfoError struct {
	Path    string
	Formats input.Formats
	Missing error // the file cannot be read
	Reason  error // why the file's BTF could not be used, if it has some
	// Unsupported: the formats named one pahole has no loader for
	// (input.Unknown), where pahole's search stops.
	Unsupported bool
}

func (e *NoInfoError) Error() string {
	if e.Missing != nil {
		return e.Missing.Error()
	}
	if e.Reason != nil {
		return e.Reason.Error()
	}
	return fmt.Sprintf("%s: no %s type information", e.Path, strings.ReplaceAll(e.Formats.String(), ",", " or "))
}

func (e *NoInfoError) Unwrap() error {
	if e.Missing != nil {
		return e.Missing
	}
	return e.Reason
}

// errStop ends a walk early: every -C name was found.
var errStop = errors.New("all types found")

// files is one ListFiles call.
type files struct {
	l      *Listing
	in     Inputs
	base   *btf.Spec
	btfErr error // why the last file's BTF could not be used
}

// ListFiles lists files in order, each read in the first format of
// in.Formats it has, then calls Finish: a DWARF file compile unit by
// compile unit (converted by package encode in parallel, written in unit
// order), BTF whole (package input: raw, an ELF's .BTF, split BTF with
// its base) and a BTF archive member by member, each named by the file's
// path. Without files, the running kernel's BTF
// (/sys/kernel/btf/vmlinux), which needs input.BTF among the formats. A
// file that is missing or has none of the formats gives a *NoInfoError.
// The listing stops early when every ClassNames type was found.
func (l *Listing) ListFiles(w io.Writer, paths []string, in Inputs) error {
	if in.Formats == nil {
		in.Formats = input.DefaultFormats
	}
	r := files{l: l, in: in}
	if in.BasePath != "" {
		b, err := input.Load(in.BasePath, nil)
		if err != nil {
			return fmt.Errorf("base: %w", err)
		}
		r.base = b
	}
	if len(paths) == 0 {
		if !in.Formats.Has(input.BTF) {
			return fmt.Errorf("no FILE given: the running kernel's BTF needs -F btf")
		}
		paths = []string{filepath.Join(btf.SysfsDir, "vmlinux")}
		r.in.Formats = input.Formats{input.BTF}
	}
	for _, path := range paths {
		stop, err := r.file(w, path)
		if err != nil {
			return err
		}
		if stop {
			break
		}
	}
	return l.Finish(w)
}

// file lists one file in the first format it has.
func (r *files) file(w io.Writer, path string) (stop bool, err error) {
	if err := input.Readable(path); err != nil {
		return false, &NoInfoError{Path: path, Formats: r.in.Formats, Missing: err}
	}
	for _, f := range r.in.Formats {
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
			return false, &NoInfoError{Path: path, Formats: r.in.Formats, Unsupported: true}
		}
		if err != nil || ok {
			return stop, err
		}
	}
	return false, &NoInfoError{Path: path, Formats: r.in.Formats, Reason: r.btfErr}
}

// dwarfFile lists the compile units of an ELF file with DWARF; ok is false
// when the file has no DWARF.
func (r *files) dwarfFile(w io.Writer, path string) (ok, stop bool, err error) {
	// The live heap is small (the units in flight and the keys listed:
	// ~30 MiB for the Debian vmlinux) and the garbage large (every unit's
	// Spec and types): collecting at 5x live instead of 2x takes a third
	// off the CPU time there for ~100 MiB more peak RSS (~330 MiB in all,
	// the file's mapped pages included; pahole 1.31 peaks at 2.6 GiB).
	// The process's setting is restored on return; GOGC set wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	if r.in.Stats != nil {
		if err := r.in.Stats.DWARFFile(path, r.in.Jobs); err != nil {
			return false, false, ignoreNoDWARF(err)
		}
	}
	o := &r.l.opts
	if o.NrMethods && len(o.ClassNames) == 0 && r.in.UnitFunctions != nil {
		return r.dwarfMethods(w, path)
	}
	// The units are converted and prepared for the listing in parallel,
	// and written in unit order (Batch says which options print in
	// parallel too).
	batch := r.l.NewBatch()
	type prepared struct {
		p     *Prepared
		index int
		name  string
	}
	err = encode.MapUnits(path, encode.Options{Features: encode.DefaultFeatures, Jobs: r.in.Jobs, Warnings: r.in.Warnings,
		// -C stops at the unit where the last name is found, and
		// FirstObjOnly after the first (errStop), as pahole stops
		// loading: a lookup walk reads no unit past it.
		Lookup: len(o.ClassNames) > 0 || o.FirstObjOnly,
		// -D compares declaration files; -I prints them; -P names an
		// anonymous struct without a typedef by its declaration.
		DeclInfo: o.DeclExcludePrefix != nil || o.ShowDeclInfo || (o.Packable && o.AnonInclude)},
		func(u encode.Unit) (prepared, error) {
			return prepared{batch.Prepare(u.Index, u.Name, u.Spec, u.Facts), u.Index, u.Name}, nil
		}, func(u prepared) error {
			r.dwarfUnitStats(u.name, u.index)
			return stopWhen(batch.Write(w, u.p))
		})
	return dwarfDone(err)
}

// dwarfMethods is dwarfFile for NrMethods (after Stats.DWARFFile): each
// unit's functions are read too.
func (r *files) dwarfMethods(w io.Writer, path string) (ok, stop bool, err error) {
	err = r.in.UnitFunctions(path, r.in.Jobs, func(u UnitFunctions) error {
		r.dwarfUnitStats(u.Name, u.Index)
		return stopWhen(r.l.NamedUnitFunctions(w, u.Name, u.Spec, u.Facts, u.Params))
	})
	return dwarfDone(err)
}

// stopWhen is a unit's listing as a walk's emit returns it: errStop when
// the listing says every name was found.
func stopWhen(stop bool, err error) error {
	if err == nil && stop {
		return errStop
	}
	return err
}

func (r *files) dwarfUnitStats(name string, index int) {
	if r.in.Stats != nil && !r.l.UnitExcluded(name) {
		r.in.Stats.DWARFUnit(name, index)
	}
}

// dwarfDone is what a DWARF file's walk ending in err means: no DWARF
// (not ok), every name found (stop), or err.
func dwarfDone(err error) (ok, stop bool, _ error) {
	switch {
	case errors.Is(err, encode.ErrNoDWARF):
		return false, false, nil
	case errors.Is(err, errStop):
		return true, true, nil
	}
	return true, false, err
}

// ignoreNoDWARF is err unless it says the file has no DWARF.
func ignoreNoDWARF(err error) error {
	if errors.Is(err, encode.ErrNoDWARF) {
		return nil
	}
	return err
}

// btfFile lists the BTF of a raw BTF file or of an ELF file's .BTF
// section, every member of an archive; ok is false when there is none.
func (r *files) btfFile(w io.Writer, path string) (ok, stop bool, err error) {
	// The members with their bases (package input: a sysfs module's
	// vmlinux, a module's .BTF.base relocated onto the base).
	ms, err := input.Members(path, r.base)
	if err != nil {
		// An ELF file without .BTF has none to list; one whose BTF
		// cannot be used (a .BTF.base that does not fit the base) says
		// why.
		if !errors.Is(err, elfx.ErrNoSection) {
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
		if r.in.Stats != nil && !r.l.UnitExcluded(path) {
			r.in.Stats.BTFUnit(path, s)
		}
		// pahole names a BTF input's unit by the file's path.
		if stop, err := r.l.NamedUnitFunctions(w, path, s, nil, nil); err != nil || stop {
			return true, stop, err
		}
	}
	return true, false, nil
}
