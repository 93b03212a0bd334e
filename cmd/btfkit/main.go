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
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/internal/atomicfile"
)

var rootCmd = &cobra.Command{
	Use:           "btfkit",
	Short:         "BTF toolkit: encode DWARF to BTF, dedup, dump, check, struct layouts, pretty-print data",
	Long:          "btfkit turns DWARF debug info into BTF (the BPF Type Format), deduplicates and merges\nBTF, validates it, and prints it as raw listings or C headers, struct layouts\nwith their holes (pahole), function listings (pfunct) and raw records decoded\nwith their types (pahole --prettify).",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// exitError carries an exit status out of a subcommand without printing
// anything more (the subcommand has already said what it needs to).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	stopOnSignals()
	// Run as "pahole" (a symlink to btfkit, as kernel builds use it:
	// make PAHOLE=...), btfkit is its pahole command.
	switch filepath.Base(os.Args[0]) {
	case "pahole":
		rootCmd.SetArgs(append([]string{"pahole"}, os.Args[1:]...))
	case "pfunct": // likewise pahole's pfunct (pfunct.go)
		pfunctProg = os.Args[0]
		rootCmd.SetArgs(append([]string{"pfunct"}, os.Args[1:]...))
	case "pglobal": // likewise pahole's pglobal (pglobal.go)
		pglobalProg = "pglobal"
		rootCmd.SetArgs(append([]string{"pglobal"}, os.Args[1:]...))
	case "codiff": // likewise pahole's codiff (codiff.go)
		codiffProg, codiffAsTool = "codiff", true
		rootCmd.SetArgs(append([]string{"codiff"}, os.Args[1:]...))
	case "pdwtags": // likewise pahole's pdwtags (pdwtags.go)
		pdwtagsProg = "pdwtags"
		rootCmd.SetArgs(append([]string{"pdwtags"}, os.Args[1:]...))
	case "prefcnt": // likewise pahole's prefcnt (prefcnt.go)
		prefcntAsTool = true
		rootCmd.SetArgs(append([]string{"prefcnt"}, os.Args[1:]...))
	}
	stopProfiles := startProfiles()
	err := rootCmd.Execute()
	stopProfiles()
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintf(os.Stderr, "btfkit: %v\n", err)
		os.Exit(1)
	}
}

// stopOnSignals makes SIGINT, SIGTERM and SIGHUP stop btfkit cleanly
// wherever it is: every output file being written is a temporary file
// (internal/atomicfile), which is removed, and none is renamed after the
// signal, so each output is either as it was or complete (the outputs a
// batch finished before the signal). The status is 128 plus the
// signal's number, as a shell reports a command killed by it.
func stopOnSignals() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-ch
		atomicfile.Stop()
		fmt.Fprintf(os.Stderr, "btfkit: stopped by %v; outputs being written were removed, finished ones kept\n", sig)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
}
