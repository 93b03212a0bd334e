package main

// pahole's -R/--reorganize, -S/--show_reorg_steps and -P/--packable, for
// `btfkit pahole` with pahole's flags and for `btfkit layout` with native
// ones (--reorganize, --show-reorg-steps, --packable).
//
// pahole reorganizes only the types named with -C and ignores -R without
// -C (and -S without -R); btfkit pahole does the same, while btfkit layout
// refuses those combinations instead of ignoring a flag. --packable lists
// the structs of the whole input; with -C pahole prints the named types'
// layouts as if it was not given, and so do both commands.

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/layout"
)

var layoutReorgOpts struct {
	reorganize, steps, packable bool
}

func init() {
	registerPaholeLayoutFlags(
		paholeLayoutFlag{short: "R", name: "reorganize", help: "reorg struct trying to kill holes",
			apply: func(l *paholeLayout, _ string) error { l.opts.Reorganize = true; return nil }},
		paholeLayoutFlag{short: "S", name: "show_reorg_steps", help: "show the struct layout at each reorganization step",
			apply: func(l *paholeLayout, _ string) error { l.opts.ShowReorgSteps = true; return nil }},
		paholeLayoutFlag{short: "P", name: "packable", help: "show only structs that has holes that can be packed",
			apply: func(l *paholeLayout, _ string) error { l.opts.Packable = true; return nil }},
	)

	f := layoutCmd.Flags()
	f.BoolVarP(&layoutReorgOpts.reorganize, "reorganize", "R", false,
		"with -C: print each struct with its members moved into holes as pahole does, and the bytes saved")
	f.BoolVarP(&layoutReorgOpts.steps, "show-reorg-steps", "S", false,
		"with --reorganize: print each move and the struct after it")
	f.BoolVarP(&layoutReorgOpts.packable, "packable", "P", false,
		"list the structs --reorganize would make smaller: name, size, reorganized size, bytes saved")
	layoutFlagHooks = append(layoutFlagHooks, func(cmd *cobra.Command, o *layout.Options) error {
		r := &layoutReorgOpts
		if r.reorganize && len(o.ClassNames) == 0 {
			return errors.New("--reorganize needs -C: it reorganizes the types named there")
		}
		if r.steps && !r.reorganize {
			return errors.New("--show-reorg-steps needs --reorganize")
		}
		o.Reorganize, o.ShowReorgSteps, o.Packable = r.reorganize, r.steps, r.packable
		return nil
	})
}
