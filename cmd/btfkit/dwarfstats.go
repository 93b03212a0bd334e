package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
)

func init() {
	var jobs int
	cmd := &cobra.Command{
		Use:   "dwarf-stats [-j N] FILE",
		Short: "Count the DWARF units and DIEs of an ELF file, by tag",
		Long: "dwarf-stats walks every unit of FILE's DWARF (.debug_info and .debug_types) with N\n" +
			"workers and prints the number of units, of DIEs (null entries excluded) and one\n" +
			"line per tag, sorted by tag name.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			d, err := dwarf.Open(path)
			if err != nil {
				return dwarfStatsFail(path, err)
			}
			defer d.Close()
			s, err := dwarf.CountTags(d, jobs)
			if err != nil {
				return dwarfStatsFail(path, err)
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			fmt.Fprintf(w, "units %d\n", s.Units)
			fmt.Fprintf(w, "dies %d\n", s.DIEs)
			for _, t := range s.SortedTags() {
				fmt.Fprintf(w, "%v %d\n", t, s.Tags[t])
			}
			return w.Flush()
		},
	}
	cmd.Flags().IntVarP(&jobs, "jobs", "j", 0, "number of workers (default: number of CPUs)")
	rootCmd.AddCommand(cmd)
}

// dwarfStatsFail prints err naming path once: dwarf.Open's errors name it
// already (*elfx.Error), the walk's get it added.
func dwarfStatsFail(path string, err error) error {
	fmt.Fprintf(os.Stderr, "btfkit: %v\n", elfx.NamingFile(path, err))
	return exitError{1}
}
