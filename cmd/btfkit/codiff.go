package main

// `btfkit codiff ARGS`: pahole's codiff, with its command line (argp's
// rules, as pfunct's), output and messages; a symlink named codiff to
// the btfkit binary runs it (see main) with 1.32's exit statuses too.
// btfkit's own subcommand goes further, for CI: --format json prints the
// changes as data (codiff_json.go), and the exit status is 1 when
// anything changed (0 when nothing did, 2 when codiff fails).

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/pfunct"
)

var codiffCmd = &cobra.Command{
	Use:   "codiff [codiff options] OLD_FILE NEW_FILE",
	Short: "pahole's codiff: what changed between two builds (structs, functions)",
	Long: `codiff compares two builds of an object unit by unit, as pahole's codiff 1.32
does: structs (size, members added, removed, moved or resized, holes, padding)
and functions (size, prototype, inlining), tersely (-t), by default or
verbosely (-V). As 'btfkit codiff' it also prints the changes as JSON
(--format json) and exits with status 1 when anything changed, 0 when nothing
did (2 when it cannot compare); a symlink named "codiff" to the btfkit binary
is 1.32's codiff, exit statuses included. Run 'btfkit codiff --help'.`,
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		if code := codiffMain(codiffProg, args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() { rootCmd.AddCommand(codiffCmd) }

// codiffProg is the program name codiff's command line messages give:
// "codiff" when the binary runs as codiff (main sets it, and codiffAsTool).
var (
	codiffProg   = "btfkit codiff"
	codiffAsTool bool
)

var codiffLongOptions = strings.Fields(`structs functions format_path terse_type_changes verbose quiet format devel_version help usage version`)

type codiffConfig struct {
	o      pfunct.CodiffOptions
	format string // btfkit's --format: text or json
	argp   argpBuiltins
}

func parseCodiff(prog string, args []string) (*codiffConfig, []string, error) {
	c := &codiffConfig{format: "text"}
	fs := pflag.NewFlagSet("codiff", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	fs.BoolVarP(&c.o.Structs, "structs", "s", false, "show struct diffs")
	fs.BoolVarP(&c.o.Functions, "functions", "f", false, "show function diffs")
	fs.StringVarP(&c.o.Format, "format_path", "F", "", "List of debugging formats to try")
	fs.BoolVarP(&c.o.Terse, "terse_type_changes", "t", false, "show terse type changes")
	fs.BoolVarP(&c.o.Verbose, "verbose", "V", false, "show diffs details")
	fs.BoolVarP(&c.o.Quiet, "quiet", "q", false, "Show only differences, no difference? No output")
	if !codiffAsTool {
		fs.StringVar(&c.format, "format", "text", "output format: text (codiff's) or json")
	}
	c.argp.add(fs)
	return parseArgp(fs, "codiff", prog, codiffLongOptions, args, c)
}

// codiffMain runs a codiff command line and returns the exit status.
func codiffMain(prog string, args []string, stdout, stderr io.Writer) int {
	failed := 1 // codiff 1.32's status for every failure
	if !codiffAsTool {
		failed = 2 // 1 says "changed"
	}
	c, files, err := parseCodiff(prog, args)
	if err != nil {
		code := reportError(stderr, "codiff", err)
		if !codiffAsTool && code == 1 {
			code = failed
		}
		return code
	}
	if c.argp.answer(stdout, codiffHelp(), codiffUsageText()) {
		return 0
	}
	if c.format != "text" && c.format != "json" {
		fmt.Fprintf(stderr, "%s: --format: %q is neither text nor json\n", prog, c.format)
		return failed
	}
	if len(files) != 2 {
		fmt.Fprintln(stderr, "Try `codiff --help' or `codiff --usage' for more information.")
		return failed
	}
	c.o.Warnings = stderr
	var ok bool
	if c.o.LangExclude, ok = paholeLangExclude(prog, stderr); !ok {
		return failed
	}
	var changed bool
	if c.format == "json" {
		changed, err = codiffJSON(stdout, files[0], files[1], c.o)
	} else {
		changed, err = pfunct.Codiff(stdout, files[0], files[1], c.o)
	}
	if err != nil {
		fmt.Fprintf(stderr, "codiff: %v\n", err)
		return failed
	}
	if changed && !codiffAsTool {
		return 1
	}
	return 0
}

func codiffHelp() string {
	s := `Usage: codiff [OPTION...] OLD_FILE NEW_FILE

      --devel_version        Print development version with git SHA (e.g.,
                             v1.31-189-g437fced33da3393e)
  -f, --functions            show function diffs
  -F, --format_path=FORMAT_LIST   List of debugging formats to try
  -q, --quiet                Show only differences, no difference? No output
  -s, --structs              show struct diffs
  -t, --terse_type_changes   show terse type changes
  -V, --verbose              show diffs details
  -?, --help                 Give this help list
      --usage                Give a short usage message
      --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`
	if !codiffAsTool {
		s = strings.Replace(s, "  -f, --functions", "      --format=FORMAT        text (codiff's, the default) or json; btfkit's\n                             codiff exits 1 when anything changed\n  -f, --functions", 1)
	}
	return s
}

func codiffUsageText() string {
	if !codiffAsTool {
		return `Usage: codiff [-fqstV?] [-F FORMAT_LIST] [--devel_version] [--format=FORMAT]
            [--functions] [--format_path=FORMAT_LIST] [--quiet] [--structs]
            [--terse_type_changes] [--verbose] [--help] [--usage] [--version]
            OLD_FILE NEW_FILE
`
	}
	return `Usage: codiff [-fqstV?] [-F FORMAT_LIST] [--devel_version] [--functions]
            [--format_path=FORMAT_LIST] [--quiet] [--structs]
            [--terse_type_changes] [--verbose] [--help] [--usage] [--version]
            OLD_FILE NEW_FILE
`
}

// codiffJSON is --format json (codiff_json.go).
var codiffJSON = func(w io.Writer, oldPath, newPath string, o pfunct.CodiffOptions) (bool, error) {
	return false, fmt.Errorf("--format json: not built")
}
