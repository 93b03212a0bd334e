package main

// `btfkit pfunct ARGS`: pahole's pfunct, with its command line (argp's
// rules: short options in groups, long options by any unambiguous
// prefix), output, messages and exit statuses; a symlink named pfunct to
// the btfkit binary runs it (see main). The work is package pfunct's.

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/pfunct"
)

var pfunctCmd = &cobra.Command{
	Use:   "pfunct [pfunct options] FILE...",
	Short: "pahole's pfunct: list functions from DWARF or BTF",
	Long: `pfunct lists the functions of ELF files (from their DWARF) or BTF files, as
pahole's pfunct 1.32 does: names, prototypes, sizes, inline expansions, goto
labels, declaration sites, decl tags. A symlink named "pfunct" to the btfkit
binary does the same. Run 'btfkit pfunct --help'.`,
	DisableFlagParsing: true,
	RunE: func(cmd *cobra.Command, args []string) error {
		if code := pfunctMain(pfunctProg, args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			return exitError{code}
		}
		return nil
	},
}

func init() { rootCmd.AddCommand(pfunctCmd) }

// pfunctLongOptions are pfunct's long options in its option table's
// order, then argp's own.
var pfunctLongOptions = strings.Fields(`addr all expand_types class externals function
format_path goto_labels cc_uninlined cc_inlined inline_expansions
inline_expansions_stats decl_info total_inline_stats sizes function_name_len
nr_parms prototypes nr_variables variables verbose symtab compile no_parm_names
btf_base devel_version help usage version`)

// pfunctFlag is one of pfunct's options: set applies it to the options
// as pfunct's argp parser does, in command line order.
type pfunctFlag struct {
	short, name, arg string
	optional         bool // the argument may be left out (--symtab, --compile)
	help             string
	set              func(c *pfunctConfig, v string)
}

// pfunctConfig is a parsed pfunct command line.
type pfunctConfig struct {
	o                    pfunct.Options
	help, usage, version bool
}

var pfunctFlags = []pfunctFlag{
	{"a", "addr", "ADDR", false, "show the function whose code holds ADDR", func(c *pfunctConfig, v string) {
		c.o.Addr = strtoull(v)
		c.o.ReadAddresses = true
	}},
	{"A", "all", "", false, "show every function that matches, or every prototype without a filter", func(c *pfunctConfig, v string) { c.o.All = true }},
	{"", "btf_base", "PATH", false, "the base BTF of split BTF FILEs (a module's: vmlinux's); selects BTF without -F", func(c *pfunctConfig, v string) { c.o.BTFBase = v }},
	{"b", "expand_types", "", false, "print the types each prototype needs before it", func(c *pfunctConfig, v string) { c.o.ExpandTypes = true }},
	{"c", "class", "CLASS", false, "functions with a parameter pointing to struct CLASS", func(c *pfunctConfig, v string) { c.o.Class = v }},
	{"", "devel_version", "", false, "print the development version (here the release followed)", func(c *pfunctConfig, v string) { c.version = true }},
	{"E", "externals", "", false, "only external functions", func(c *pfunctConfig, v string) { c.o.Externals = true }},
	{"f", "function", "FUNCTION", false, "only FUNCTION", func(c *pfunctConfig, v string) { c.o.Function = v }},
	{"F", "format_path", "FORMAT_LIST", false, "debugging formats to try, in order", func(c *pfunctConfig, v string) { c.o.Format = v }},
	{"g", "goto_labels", "", false, "number of goto labels of each function", func(c *pfunctConfig, v string) { c.o.Formatter = pfunct.ListLabels }},
	{"G", "cc_uninlined", "", false, "declared inline, not inlined by the compiler", func(c *pfunctConfig, v string) { c.o.CCUninlined = true }},
	{"H", "cc_inlined", "", false, "not declared inline, inlined by the compiler", func(c *pfunctConfig, v string) { c.o.CCInlined = true }},
	{"i", "inline_expansions", "", false, "lexical blocks with their inline expansions", func(c *pfunctConfig, v string) { c.o.InlineExpansions = true }},
	{"I", "inline_expansions_stats", "", false, "number and size of each function's inline expansions", func(c *pfunctConfig, v string) {
		c.o.Formatter = pfunct.ListInlines
		c.o.ReadAddresses = true
	}},
	{"l", "decl_info", "", false, "where each function is declared", func(c *pfunctConfig, v string) { c.o.DeclInfo = true }},
	{"t", "total_inline_stats", "", false, "inline expansion totals over all units", func(c *pfunctConfig, v string) { c.o.TotalInlineStats = true }},
	{"s", "sizes", "", false, "size of each function's code", func(c *pfunctConfig, v string) {
		c.o.Formatter = pfunct.ListSizes
		c.o.ReadAddresses = true
	}},
	{"N", "function_name_len", "", false, "length of each function's name", func(c *pfunctConfig, v string) { c.o.Formatter = pfunct.ListNameLength }},
	{"p", "nr_parms", "", false, "number of parameters of each function", func(c *pfunctConfig, v string) { c.o.Formatter = pfunct.ListParams }},
	{"P", "prototypes", "", false, "function prototypes", func(c *pfunctConfig, v string) { c.o.Prototypes = true }},
	{"S", "nr_variables", "", false, "number of variables of each function", func(c *pfunctConfig, v string) { c.o.Formatter = pfunct.ListVariables }},
	{"T", "variables", "", false, "lexical blocks with their variables (with -V)", func(c *pfunctConfig, v string) { c.o.Variables = true }},
	{"V", "verbose", "", false, "be verbose", func(c *pfunctConfig, v string) { c.o.Verbose = true }},
	{"", "symtab", "NAME", true, "functions of symbol table NAME (.symtab by default)", func(c *pfunctConfig, v string) {
		if v == "" {
			v = ".symtab"
		}
		c.o.Symtab = v
	}},
	{"", "compile", "FUNCTION", true, "compilable source with the types expanded (all functions by default)", func(c *pfunctConfig, v string) {
		c.o.Compile = true
		c.o.ExpandTypes = true
		if v != "" {
			c.o.Function = v
		}
	}},
	{"", "no_parm_names", "", false, "leave parameter names out", func(c *pfunctConfig, v string) { c.o.NoParmNames = true }},
}

// strtoull is C's strtoull with base 0: 0x for hex, 0 for octal, the
// longest valid prefix, 0 when there is none.
func strtoull(s string) uint64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	base := 10
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isDigit(s[2], 16):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base = 8
	}
	end := 0
	for end < len(s) && isDigit(s[end], base) {
		end++
	}
	v, err := strconv.ParseUint(s[:end], base, 64)
	if err != nil && end > 0 {
		return ^uint64(0)
	}
	if neg {
		return -v
	}
	return v
}

func isDigit(c byte, base int) bool {
	var d int
	switch {
	case c >= '0' && c <= '9':
		d = int(c - '0')
	case c >= 'a' && c <= 'z':
		d = int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		d = int(c-'A') + 10
	default:
		return false
	}
	return d < base
}

// pfunctValue feeds an option to its set function when pflag reads it.
type pfunctValue struct {
	f *pfunctFlag
	c *pfunctConfig
}

func (v pfunctValue) String() string { return "" }
func (v pfunctValue) Set(s string) error {
	if v.f.optional && s == "\x00" {
		s = ""
	}
	v.f.set(v.c, s)
	return nil
}
func (v pfunctValue) Type() string {
	if v.f.arg == "" {
		return "bool"
	}
	return "string"
}

// pfunctUsage is argp's "Try ..." line for program prog.
func pfunctUsage(prog string) string {
	return fmt.Sprintf("Try `%s --help' or `%s --usage' for more information.", prog, prog)
}

func parsePfunct(prog string, args []string) (*pfunctConfig, []string, error) {
	c := &pfunctConfig{}
	fs := pflag.NewFlagSet("pfunct", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SetInterspersed(true)
	for i := range pfunctFlags {
		f := &pfunctFlags[i]
		fl := fs.VarPF(pfunctValue{f, c}, f.name, f.short, f.help)
		switch {
		case f.arg == "":
			fl.NoOptDefVal = "true"
		case f.optional:
			fl.NoOptDefVal = "\x00"
		}
	}
	fs.BoolVarP(&c.help, "help", "?", false, "give this help list")
	fs.BoolVar(&c.usage, "usage", false, "give a short usage message")
	fs.BoolVar(&c.version, "version", false, "print program version")
	return parseArgp(fs, "pfunct", prog, pfunctLongOptions, args, c)
}

// pfunctMain runs a pfunct command line and returns the exit status.
func pfunctMain(prog string, args []string, stdout, stderr io.Writer) int {
	c, files, err := parsePfunct(prog, args)
	if err != nil {
		return reportError(stderr, "pfunct", err)
	}
	switch {
	case c.help:
		io.WriteString(stdout, pfunctHelp())
		return 0
	case c.usage:
		io.WriteString(stdout, pfunctUsageText)
		return 0
	case c.version:
		fmt.Fprintln(stdout, paholeVersion)
		return 0
	}
	c.o.Warnings = stderr
	c.o.Jobs = 0
	// pahole's tools take the languages to leave out from the
	// environment.
	var ok bool
	if c.o.LangExclude, ok = paholeLangExclude(prog, stderr); !ok {
		return 1
	}
	err = pfunct.Run(stdout, files, c.o)
	var (
		ni  *pfunct.NoInfoError
		nf  *pfunct.NotFoundError
		le  *pfunct.LoadError
		fnf *pfunct.FunctionNotFoundError
	)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pfunct.ErrUsage):
		fmt.Fprintln(stderr, pfunctUsage(prog))
		return 1
	case errors.Is(err, pfunct.ErrNoSymtab):
		return 1
	case errors.As(err, &fnf):
		fmt.Fprintf(stderr, "pfunct: %v\n", err)
		if fnf.NoFile {
			return 1
		}
		return 0 // pfunct 1.32's status: its output is the contract
	case errors.As(err, &ni):
		if ni.Err != nil {
			fmt.Fprintf(stderr, "pfunct: %v\n", ni.Err)
		}
		fmt.Fprintf(stderr, "pfunct: %v\n", ni)
		return 1
	case errors.As(err, &nf), errors.As(err, &le), errors.As(err, new(*pfunct.BaseError)):
		fmt.Fprintf(stderr, "pfunct: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "pfunct: %v\n", err)
	return 1
}

// pfunctHelp is --help, laid out as argp lays it out.
func pfunctHelp() string {
	var b strings.Builder
	b.WriteString("Usage: pfunct [OPTION...] FILE\n\n")
	type line struct{ opt, help string }
	var lines []line
	for _, f := range pfunctFlags {
		opt := "    "
		if f.short != "" {
			opt = "-" + f.short + ", "
		}
		opt += "--" + f.name
		switch {
		case f.optional:
			opt += "[=" + f.arg + "]"
		case f.arg != "":
			opt += "=" + f.arg
		}
		lines = append(lines, line{opt, f.help})
	}
	lines = append(lines, line{"-?, --help", "give this help list"}, line{"    --usage", "give a short usage message"}, line{"    --version", "print program version"})
	for _, l := range lines {
		s := "  " + l.opt
		if len(s) < 29 {
			s += strings.Repeat(" ", 29-len(s))
		} else {
			s += "   "
		}
		b.WriteString(s + l.help + "\n")
	}
	b.WriteString("\nMandatory or optional arguments to long options are also mandatory or optional\nfor any corresponding short options.\n")
	return b.String()
}

const pfunctUsageText = `Usage: pfunct [-AbEgGHiIlNpPsStTV?] [-a ADDR] [-c CLASS] [-f FUNCTION]
            [-F FORMAT_LIST] [--addr=ADDR] [--all] [--btf_base=PATH]
            [--expand_types] [--compile[=FUNCTION]] [--class=CLASS]
            [--devel_version] [--externals] [--function=FUNCTION]
            [--format_path=FORMAT_LIST] [--goto_labels] [--cc_uninlined]
            [--cc_inlined] [--inline_expansions] [--inline_expansions_stats]
            [--decl_info] [--no_parm_names] [--function_name_len] [--nr_parms]
            [--prototypes] [--symtab[=NAME]] [--sizes] [--nr_variables]
            [--total_inline_stats] [--variables] [--verbose] [--help] [--usage]
            [--version] FILE
`

// pfunctProg is the program name pfunct's messages give: argv[0] when
// the binary runs as pfunct (main sets it), else "btfkit pfunct".
var pfunctProg = "btfkit pfunct"
