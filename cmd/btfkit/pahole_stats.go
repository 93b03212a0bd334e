package main

// pahole's -m/--nr_methods, -u/--defined_in, --first_obj_only and
// --ptr_table_stats (package layout's stats.go and methods.go; -m reads
// each unit's functions with package pfunct's loader; -T is
// pahole_filters.go's), for `btfkit pahole` with pahole's flags and
// for `btfkit layout` with native ones.

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/layout"
	"github.com/btfkit/btfkit/pfunct"
)

func init() {
	registerPaholeLayoutFlags(
		// pahole keeps one statistic, the last of -T and -m given.
		paholeSwitch("m", "nr_methods", "show number of methods", func(o *layout.Options) {
			o.NrDefinitions, o.NrMethods = false, true
		}),
		paholeSwitch("u", "defined_in", "show CUs where CLASS_NAME (-C) is defined", func(o *layout.Options) { o.DefinedIn = true }),
		paholeSwitch("", "first_obj_only", "Only process the first object file in the binary", func(o *layout.Options) { o.FirstObjOnly = true }),
		paholeLayoutFlag{name: "ptr_table_stats", help: "print internal ptr_table stats",
			apply: func(l *paholeLayout, _ string) error { l.tableStats = true; return nil }},
	)

	f := layoutCmd.Flags()
	var n struct{ methods, definedIn, first bool }
	f.BoolVarP(&n.methods, "nr-methods", "m", false, "instead of layouts, each struct function parameters point to and how many do")
	f.BoolVarP(&n.definedIn, "defined-in", "u", false, "with -C: print the compile unit each type is found in instead of the type")
	f.BoolVar(&n.first, "first-obj-only", false, "stop after the first compile unit (with -C: the first that has every name)")
	layoutFlagHooks = append(layoutFlagHooks, func(cmd *cobra.Command, o *layout.Options) error {
		o.NrMethods, o.DefinedIn, o.FirstObjOnly = n.methods && !o.NrDefinitions, n.definedIn, n.first
		if n.methods && len(o.ClassNames) > 0 {
			return fmt.Errorf("--nr-methods lists every struct: not with -C")
		}
		return nil
	})
}

// tableStats is --ptr_table_stats: before each unit is listed, the sizes
// of the tables pahole's loader filled for it (pfunct.DWARFTables,
// pfunct.BTFTables) as a line of CSV on stderr, after a header line; the
// listing (layout.Inputs.Stats) calls it but for units it leaves out
// (pahole's cu__filter comes first).
type tableStats struct {
	w      io.Writer
	header bool                 // printed
	counts []pfunct.TableCounts // the last DWARF file's units'
}

// DWARFFile reads the counts of path's units (layout.UnitStats).
func (t *tableStats) DWARFFile(path string, jobs int) error {
	counts, err := pfunct.DWARFTables(path, jobs)
	t.counts = counts
	return err
}

// DWARFUnit prints unit index's counts.
func (t *tableStats) DWARFUnit(name string, index int) {
	if index < len(t.counts) {
		t.row(name, t.counts[index])
	}
}

// BTFUnit prints a BTF input's counts.
func (t *tableStats) BTFUnit(name string, s *btf.Spec) {
	t.row(name, pfunct.BTFTables(s))
}

func (t *tableStats) row(name string, c pfunct.TableCounts) {
	if !t.header {
		fmt.Fprintln(t.w, "# cu,tags,allocated_tags,types,allocated_types,functions,allocated_functions")
		t.header = true
	}
	fmt.Fprintf(t.w, "%s,%d,%d,%d,%d,%d,%d\n", name, c.Tags, pfunct.Allocated(c.Tags),
		c.Types, pfunct.Allocated(c.Types), c.Functions, pfunct.Allocated(c.Functions))
}
