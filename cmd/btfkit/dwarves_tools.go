package main

// What the command lines of pahole's sibling tools (pglobal, pdwtags,
// codiff; pfunct's in part) share: argp's parsing and messages, argp's
// own options, and the languages PAHOLE_LANG_EXCLUDE leaves out.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/encode"
)

// argpBuiltins are argp's own options and dwarves' --devel_version.
type argpBuiltins struct{ help, usage, version bool }

// add defines them on fs, after the tool's own options.
func (a *argpBuiltins) add(fs *pflag.FlagSet) {
	fs.BoolVar(&a.version, "devel_version", false, "Print development version")
	fs.BoolVarP(&a.help, "help", "?", false, "Give this help list")
	fs.BoolVar(&a.usage, "usage", false, "Give a short usage message")
	fs.BoolVar(&a.version, "version", false, "Print program version")
}

// answer prints what the one given asks for (help and usage are the
// tool's texts) and reports whether one was given. --devel_version
// prints the release: pahole prints v1.32, v1.32-N-gSHA or
// v1.32-tarball-gSHA, and btfkit is none of pahole's builds.
func (a *argpBuiltins) answer(stdout io.Writer, help, usage string) bool {
	switch {
	case a.help:
		io.WriteString(stdout, help)
	case a.usage:
		io.WriteString(stdout, usage)
	case a.version:
		fmt.Fprintln(stdout, paholeVersion)
	default:
		return false
	}
	return true
}

// parseArgp parses args with fs by argp's rules for the argp program
// tool run as prog (long options by any unambiguous prefix of long, in
// its option table's order), with argp's messages.
func parseArgp[C any](fs *pflag.FlagSet, tool, prog string, long, args []string, c C) (C, []string, error) {
	try := fmt.Sprintf("Try `%s --help' or `%s --usage' for more information.", tool, tool)
	usageErr := func(format string, a ...any) error {
		return &paholeError{paholeUsageStatus, prog + ": " + fmt.Sprintf(format, a...) + "\n" + try}
	}
	var zero C
	args, err := argpLongPrefixes(fs, long, args, usageErr)
	if err != nil {
		return zero, nil, err
	}
	if err := fs.Parse(args); err != nil {
		pe := paholeParseError(err, args)
		var e *paholeError
		if errors.As(pe, &e) {
			e.msg = prog + strings.TrimPrefix(e.msg, "pahole")
			e.msg = strings.Replace(e.msg, "Try `pahole --help' or `pahole --usage' for more information.", try, 1)
		}
		return zero, nil, pe
	}
	return c, fs.Args(), nil
}

// paholeLangExclude is the languages pahole's tools take from
// PAHOLE_LANG_EXCLUDE; false when it names none they know (said on
// stderr).
func paholeLangExclude(prog string, stderr io.Writer) ([]uint16, bool) {
	env := os.Getenv("PAHOLE_LANG_EXCLUDE")
	if env == "" {
		return nil, true
	}
	langs, err := encode.ParseLanguages(env)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", prog, err)
		return nil, false
	}
	return langs, true
}

// runFileTool is the rest of a sibling tool's main once its options are
// parsed and none of argp's own was given: FILEs are needed, the
// languages to leave out are read, and run's error is the tool's message
// (status 1).
func runFileTool(tool, prog string, files []string, stderr io.Writer, run func(langExclude []uint16) error) int {
	if len(files) == 0 {
		fmt.Fprintf(stderr, "Try `%s --help' or `%s --usage' for more information.\n", tool, tool)
		return 1
	}
	langs, ok := paholeLangExclude(prog, stderr)
	if !ok {
		return 1
	}
	if err := run(langs); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", tool, err)
		return 1
	}
	return 0
}
