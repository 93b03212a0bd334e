package main

// `btfkit prefcnt FILE...`: pahole's prefcnt, with its command line (none:
// every argument is a FILE), output, messages and exit statuses; a
// symlink named prefcnt to the btfkit binary runs it (see main).
//
// prefcnt 1.32 marks the types its units' functions reach and prints
// each type nothing reached that has a declaration file; its loader
// keeps no declaration files (conf_load.extra_dbg_info is unset), so it
// prints nothing, and what it shows of its FILEs is whether they load:
// "prefcnt: FILE: Invalid argument" and status 1 when one does not. So
// does this. Without a FILE prefcnt 1.32 reads past its argument list
// (it crashes, or names an environment variable as the file it could
// not load); btfkit reads the running kernel's BTF, as pahole's loader
// means to, and says "prefcnt: (null): No debugging information found"
// when there is none.

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/pfunct"
)

var prefcntCmd = &cobra.Command{
	Use:   "prefcnt FILE...",
	Short: "pahole's prefcnt: load FILEs, report those that do not load",
	Long: `prefcnt is pahole's prefcnt 1.32: it loads the debugging information of
ELF files (DWARF) or BTF files and prints the types no function uses that have
a declaration file, which prefcnt 1.32's loader never keeps: it prints
nothing, and says which FILE does not load (exit status 1). A symlink named
"prefcnt" to the btfkit binary does the same.`,
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		// As prefcnt 1.32, the binary named prefcnt takes --help for a
		// FILE; btfkit's subcommand helps.
		if !prefcntAsTool && len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
			return cmd.Help()
		}
		if code := prefcntMain(args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() { rootCmd.AddCommand(prefcntCmd) }

// prefcntAsTool is set when the binary runs as prefcnt (see main).
var prefcntAsTool bool

// prefcntMain runs a prefcnt command line and returns the exit status.
func prefcntMain(args []string, stdout, stderr io.Writer) int {
	err := pfunct.Globals(stdout, args, pfunct.GlobalsOptions{Warnings: stderr})
	var le *pfunct.LoadError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &le):
		fmt.Fprintf(stderr, "prefcnt: %s: No debugging information found\n", le.Path)
	default:
		fmt.Fprintf(stderr, "prefcnt: %v\n", err)
	}
	return 1
}
