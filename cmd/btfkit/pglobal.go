package main

// `btfkit pglobal ARGS`: pahole's pglobal, with its command line (argp's
// rules, as pfunct's), output, messages and exit statuses; a symlink named
// pglobal to the btfkit binary runs it (see main). The work is package
// pfunct's (pfunct.Globals), whose DWARF loader it shares.

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/pfunct"
)

var pglobalCmd = &cobra.Command{
	Use:   "pglobal [pglobal options] FILE...",
	Short: "pahole's pglobal: list global variables or functions",
	Long: `pglobal lists the external variables (-v) or functions (-f) of ELF files
(from their DWARF) or BTF files, one per name, sorted by name, as pahole's
pglobal 1.32 does. A symlink named "pglobal" to the btfkit binary does the
same. Run 'btfkit pglobal --help'.`,
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		if code := pglobalMain(pglobalProg, args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() { rootCmd.AddCommand(pglobalCmd) }

// pglobalProg is the program name pglobal's command line messages give:
// "pglobal" when the binary runs as pglobal (main sets it).
var pglobalProg = "btfkit pglobal"

// pglobalLongOptions are pglobal's long options in its option table's
// order, then argp's own.
var pglobalLongOptions = strings.Fields(`variables functions format_path verbose devel_version help usage version`)

// pglobalConfig is a parsed pglobal command line.
type pglobalConfig struct {
	o       pfunct.GlobalsOptions
	verbose bool // -V: pglobal reads it and does nothing with it
	argp    argpBuiltins
}

func parsePglobal(prog string, args []string) (*pglobalConfig, []string, error) {
	c := &pglobalConfig{}
	fs := pflag.NewFlagSet("pglobal", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	fs.BoolVarP(&c.o.Variables, "variables", "v", false, "show global variables")
	fs.BoolVarP(&c.o.Functions, "functions", "f", false, "show global functions")
	fs.StringVarP(&c.o.Format, "format_path", "F", "", "List of debugging formats to try")
	fs.BoolVarP(&c.verbose, "verbose", "V", false, "be verbose")
	c.argp.add(fs)
	return parseArgp(fs, "pglobal", prog, pglobalLongOptions, args, c)
}

// pglobalMain runs a pglobal command line and returns the exit status.
func pglobalMain(prog string, args []string, stdout, stderr io.Writer) int {
	c, files, err := parsePglobal(prog, args)
	if err != nil {
		return reportError(stderr, "pglobal", err)
	}
	if c.argp.answer(stdout, pglobalHelp, pglobalUsageText) {
		return 0
	}
	c.o.Warnings = stderr
	return runFileTool("pglobal", prog, files, stderr, func(langs []uint16) error {
		c.o.LangExclude = langs
		return pfunct.Globals(stdout, files, c.o)
	})
}

// pglobalHelp is --help, as argp lays it out.
const pglobalHelp = `Usage: pglobal [OPTION...] FILE

      --devel_version        Print development version with git SHA (e.g.,
                             v1.31-189-g437fced33da3393e)
  -f, --functions            show global functions
  -F, --format_path=FORMAT_LIST   List of debugging formats to try
  -v, --variables            show global variables
  -V, --verbose              be verbose
  -?, --help                 Give this help list
      --usage                Give a short usage message
      --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`

const pglobalUsageText = `Usage: pglobal [-fvV?] [-F FORMAT_LIST] [--devel_version] [--functions]
            [--format_path=FORMAT_LIST] [--variables] [--verbose] [--help]
            [--usage] [--version] FILE
`
