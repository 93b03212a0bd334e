package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/btfkit/btfkit/dwarf"
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

func dwarfStatsFail(path string, err error) error {
	// The path is printed once: "open FILE: no such file" becomes "open: no such file".
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	fmt.Fprintf(os.Stderr, "btfkit: %s: %s\n", path, strings.TrimPrefix(err.Error(), path+": "))
	return exitError{1}
}
