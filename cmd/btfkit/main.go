// Command btfkit turns DWARF into BTF, deduplicates and merges BTF, and turns
// BTF back into things people read: raw listings, C headers, layouts.
//
// The command is thin: each subcommand lives in its own file, parses flags,
// calls the library and prints. Subcommands register themselves on rootCmd
// from an init function so that files can be added without touching this one.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "btfkit",
	Short:         "BTF toolkit: encode DWARF to BTF, dedup, dump, check",
	Long:          "btfkit turns DWARF debug info into BTF (the BPF Type Format), deduplicates and merges\nBTF, validates it, and prints it as raw listings or C headers.",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// exitError carries an exit status out of a subcommand without printing
// anything more (the subcommand has already said what it needs to).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	// Run as "pahole" (a symlink to btfkit, as kernel builds use it:
	// make PAHOLE=...), btfkit is its pahole command.
	switch filepath.Base(os.Args[0]) {
	case "pahole":
		rootCmd.SetArgs(append([]string{"pahole"}, os.Args[1:]...))
	case "pfunct": // likewise pahole's pfunct (pfunct.go)
		pfunctProg = os.Args[0]
		rootCmd.SetArgs(append([]string{"pfunct"}, os.Args[1:]...))
	}
	if err := rootCmd.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintf(os.Stderr, "btfkit: %v\n", err)
		os.Exit(1)
	}
}
