package main

// `btfkit pdwtags ARGS`: pahole's pdwtags, with its command line (argp's
// rules, as pfunct's), output, messages and exit statuses; a symlink named
// pdwtags to the btfkit binary runs it (see main). The work is package
// pfunct's (pfunct.Tags), whose DWARF loader it shares.

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/pfunct"
)

var pdwtagsCmd = &cobra.Command{
	Use:   "pdwtags [pdwtags options] FILE...",
	Short: "pahole's pdwtags: print every DWARF tag as C",
	Long: `pdwtags prints, unit by unit, every type (with its ID in pahole's types table),
function (with its lexical blocks), variable and constant of ELF files (from
their DWARF) or BTF files, as pahole's pdwtags 1.32 does. A symlink named
"pdwtags" to the btfkit binary does the same. Run 'btfkit pdwtags --help'.`,
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		if code := pdwtagsMain(pdwtagsProg, args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() { rootCmd.AddCommand(pdwtagsCmd) }

// pdwtagsProg is the program name pdwtags's command line messages give:
// "pdwtags" when the binary runs as pdwtags (main sets it).
var pdwtagsProg = "btfkit pdwtags"

// pdwtagsLongOptions are pdwtags's long options in its option table's
// order, then argp's own.
var pdwtagsLongOptions = strings.Fields(`format_path verbose devel_version help usage version`)

type pdwtagsConfig struct {
	o    pfunct.TagsOptions
	argp argpBuiltins
}

func parsePdwtags(prog string, args []string) (*pdwtagsConfig, []string, error) {
	c := &pdwtagsConfig{}
	fs := pflag.NewFlagSet("pdwtags", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	fs.StringVarP(&c.o.Format, "format_path", "F", "", "List of debugging formats to try")
	fs.BoolVarP(&c.o.DeclInfo, "verbose", "V", false, "show details")
	c.argp.add(fs)
	return parseArgp(fs, "pdwtags", prog, pdwtagsLongOptions, args, c)
}

// pdwtagsMain runs a pdwtags command line and returns the exit status.
func pdwtagsMain(prog string, args []string, stdout, stderr io.Writer) int {
	c, files, err := parsePdwtags(prog, args)
	if err != nil {
		return reportError(stderr, "pdwtags", err)
	}
	if c.argp.answer(stdout, pdwtagsHelp, pdwtagsUsageText) {
		return 0
	}
	c.o.Warnings = stderr
	return runFileTool("pdwtags", prog, files, stderr, func(langs []uint16) error {
		c.o.LangExclude = langs
		return pfunct.Tags(stdout, files, c.o)
	})
}

// pdwtagsHelp is --help, as argp lays it out.
const pdwtagsHelp = `Usage: pdwtags [OPTION...] FILE

      --devel_version        Print development version with git SHA (e.g.,
                             v1.31-189-g437fced33da3393e)
  -F, --format_path=FORMAT_LIST   List of debugging formats to try
  -V, --verbose              show details
  -?, --help                 Give this help list
      --usage                Give a short usage message
      --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`

const pdwtagsUsageText = `Usage: pdwtags [-V?] [-F FORMAT_LIST] [--devel_version]
            [--format_path=FORMAT_LIST] [--verbose] [--help] [--usage]
            [--version] FILE
`
