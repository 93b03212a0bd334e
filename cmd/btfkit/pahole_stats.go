package main

// pahole's -T/--nr_definitions, -m/--nr_methods, -u/--defined_in and
// --first_obj_only (package layout's stats.go and methods.go; -m reads
// each unit's functions with package pfunct's loader), for `btfkit pahole` with pahole's flags and
// for `btfkit layout` with native ones.

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/layout"
	"github.com/btfkit/btfkit/pfunct"
)

// paholeNrDefinitionsWithClasses is pahole 1.32's refusal of -T with -C
// (1.31 crashed), and of -m with -C.
const (
	paholeNrDefinitionsWithClasses = "pahole: -T/nr_definitions doesn't work with --class_name/-C, it shows all classes and the number of times they are defined"
	paholeNrMethodsWithClasses     = "pahole: -m/nr_methods doesn't work with --class_name/-C, it shows all classes and the number of its methods"
)

func init() {
	registerPaholeLayoutFlags(
		// pahole's -T also takes the per-type printer away: a later -s,
		// -n, -N or -z gives one back (setFormatter).
		paholeSwitch("T", "nr_definitions", "show how many times struct was defined", func(o *layout.Options) {
			o.Sizes, o.NrMembers, o.ClassNameLen, o.NamesOnly = false, false, false, false
			o.NrDefinitions, o.NrMethods = true, false
		}),
		// pahole keeps one statistic, the last of -T and -m given.
		paholeSwitch("m", "nr_methods", "show number of methods", func(o *layout.Options) {
			o.NrDefinitions, o.NrMethods = false, true
		}),
		paholeSwitch("u", "defined_in", "show CUs where CLASS_NAME (-C) is defined", func(o *layout.Options) { o.DefinedIn = true }),
		paholeSwitch("", "first_obj_only", "Only process the first object file in the binary", func(o *layout.Options) { o.FirstObjOnly = true }),
	)

	f := layoutCmd.Flags()
	var n struct{ defs, methods, definedIn, first bool }
	f.BoolVarP(&n.defs, "nr-definitions", "T", false, "after the layouts, each struct and union and the number of compile units that define it alike")
	f.BoolVarP(&n.methods, "nr-methods", "m", false, "instead of layouts, each struct function parameters point to and how many do")
	f.BoolVarP(&n.definedIn, "defined-in", "u", false, "with -C: print the compile unit each type is found in instead of the type")
	f.BoolVar(&n.first, "first-obj-only", false, "stop after the first compile unit (with -C: the first that has every name)")
	layoutFlagHooks = append(layoutFlagHooks, func(cmd *cobra.Command, o *layout.Options) error {
		o.NrDefinitions, o.NrMethods, o.DefinedIn, o.FirstObjOnly = n.defs, n.methods && !n.defs, n.definedIn, n.first
		if (n.defs || n.methods) && len(o.ClassNames) > 0 {
			return fmt.Errorf("--nr-definitions and --nr-methods list every struct: not with -C")
		}
		return nil
	})
}

// dwarfMethods is dwarfFile for -m: each unit's functions are read too.
func (r *layoutRun) dwarfMethods(w io.Writer, path string) (ok, stop bool, err error) {
	err = pfunct.EachUnitFunctions(path, r.jobs, func(u pfunct.UnitFunctions) error {
		s, err := r.listing.NamedUnitFunctions(w, u.Name, u.Spec, u.Facts, u.Params)
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
