package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpFlagLine is an option line of a --help: cobra's and argp's both
// start with two blanks, then "-x, " or four blanks, then --name.
var helpFlagLine = regexp.MustCompile(`(?m)^  (?:-(\S), |    )--([A-Za-z0-9][A-Za-z0-9_-]*)`)

// helpedFlag is an option a --help lists.
type helpedFlag struct{ short, name string }

// helpedFlags returns the options a --help text lists, in its order.
func helpedFlags(help string) []helpedFlag {
	var out []helpedFlag
	for _, m := range helpFlagLine.FindAllStringSubmatch(help, -1) {
		out = append(out, helpedFlag{m[1], m[2]})
	}
	return out
}

// commandPaths returns the command line of every command under c, c's own
// first: {"dump"}, {"completion", "bash"}, ...
func commandPaths(c *cobra.Command, prefix []string) [][]string {
	out := [][]string{prefix}
	for _, sub := range c.Commands() {
		if sub.Hidden {
			continue
		}
		out = append(out, commandPaths(sub, append(append([]string(nil), prefix...), sub.Name()))...)
	}
	return out
}

// flagValue is a value of f's type that its Set takes: its default when
// it has one, else one of the type's.
func flagValue(f *pflag.Flag) string {
	if f.DefValue != "" && f.DefValue != "[]" {
		return f.DefValue
	}
	switch t := f.Value.Type(); {
	case strings.Contains(t, "int"), strings.Contains(t, "float"):
		return "1"
	case t == "duration":
		return "1s"
	}
	return "x"
}

// TestEveryHelpedFlagParses walks every command's --help, as the binary
// prints it, and checks that each option it lists, long and short, is
// accepted: a cobra command parses it (given with --help, which stops the
// command before it runs; a flag it does not know is an error even then),
// pahole's and pfunct's own parsers take it. A help that lists no options
// is an error too: the walk would check nothing.
func TestEveryHelpedFlagParses(t *testing.T) {
	// cobra adds "help" and "completion" when it runs: walk them too.
	rootCmd.InitDefaultHelpCmd()
	rootCmd.InitDefaultCompletionCmd()
	checked := 0
	for _, path := range commandPaths(rootCmd, nil) {
		name := strings.TrimSpace("btfkit " + strings.Join(path, " "))
		help, errOut, code := btfkit(t, append(append([]string(nil), path...), "--help")...)
		if code != 0 {
			t.Errorf("%s --help: status %d, %s", name, code, errOut)
			continue
		}
		// pahole's --help ends with the options it refuses: not options
		// it takes (TestPaholeUnsupportedRefused checks them).
		if i := strings.Index(help, "does not implement:\n"); i >= 0 {
			help = help[:i]
		}
		flags := helpedFlags(help)
		if len(path) == 1 && path[0] == "prefcnt" {
			// prefcnt takes no options: every argument is a FILE, as
			// prefcnt 1.32's (only `btfkit prefcnt --help` helps).
			continue
		}
		if len(flags) == 0 {
			t.Errorf("%s --help lists no options:\n%s", name, help)
			continue
		}
		cmd, _, err := rootCmd.Find(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// cobra adds --help and --version when a command runs.
		cmd.InitDefaultHelpFlag()
		cmd.InitDefaultVersionFlag()
		var check func(arg []string) string // "" when the arguments parse
		switch {
		case cmd == paholeCmd:
			check = func(arg []string) string { return argpRefuses(parsePaholeErr(arg)) }
		case cmd == pfunctCmd:
			check = func(arg []string) string {
				_, _, err := parsePfunct("pfunct", append(arg, "f.o"))
				return argpRefuses(err)
			}
		case cmd == pglobalCmd:
			check = func(arg []string) string {
				_, _, err := parsePglobal("pglobal", append(arg, "f.o"))
				return argpRefuses(err)
			}
		case cmd == pdwtagsCmd:
			check = func(arg []string) string {
				_, _, err := parsePdwtags("pdwtags", append(arg, "f.o"))
				return argpRefuses(err)
			}
		case cmd == codiffCmd:
			check = func(arg []string) string {
				_, _, err := parseCodiff("codiff", append(arg, "old.o", "new.o"))
				return argpRefuses(err)
			}
		default:
			check = func(arg []string) string {
				out, errOut, code := btfkit(t, append(append(append([]string(nil), path...), arg...), "--help")...)
				if code != 0 || !strings.Contains(out, "Usage:") {
					return errOut
				}
				return ""
			}
		}
		for _, hf := range flags {
			var args [][]string
			switch cmd {
			case paholeCmd, pfunctCmd, pglobalCmd, pdwtagsCmd, codiffCmd:
				// argp's options: a value of "1" parses for every one
				// that takes one (counts, sizes, names, lists).
				args = append(args, []string{"--" + hf.name + argpValue(cmd, hf.name)})
				if hf.short != "" && hf.short != "?" {
					args = append(args, []string{"-" + hf.short + argpShortValue(cmd, hf.name)})
				}
			default:
				f := cmd.Flags().Lookup(hf.name)
				if f == nil {
					f = cmd.InheritedFlags().Lookup(hf.name)
				}
				if f == nil {
					t.Errorf("%s --help lists --%s, which the command does not define", name, hf.name)
					continue
				}
				long, short := []string{"--" + hf.name}, []string{"-" + hf.short}
				if f.Value.Type() != "bool" {
					long[0] += "=" + flagValue(f)
					short = append(short, flagValue(f))
				}
				args = append(args, long)
				if hf.short != "" {
					args = append(args, short)
				}
			}
			for _, a := range args {
				checked++
				if msg := check(a); msg != "" {
					t.Errorf("%s %s: not accepted, though --help lists it: %s", name, strings.Join(a, " "), strings.TrimSpace(msg))
				}
			}
		}
		t.Logf("%s: %d options", name, len(flags))
	}
	if checked < 300 {
		t.Errorf("%d command lines checked; the commands have more options than that", checked)
	}
}

// parsePaholeErr parses a pahole command line of one option and a file.
func parsePaholeErr(arg []string) error {
	_, _, err := parsePahole(append(arg, "f.o"))
	return err
}

// argpRefuses is the message of an error argp would give for an option it
// does not take, or "" (other errors, of values or combinations, are for
// options that parse).
func argpRefuses(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range []string{"unrecognized option", "invalid option", "is ambiguous", "requires an argument", "doesn't allow an argument", "does not implement"} {
		if strings.Contains(err.Error(), s) {
			return err.Error()
		}
	}
	return ""
}

// argpTakesValue reports whether pahole's or pfunct's option takes a value
// (required or optional).
func argpTakesValue(cmd *cobra.Command, name string) (takes, optional bool) {
	if cmd == pglobalCmd || cmd == pdwtagsCmd || cmd == codiffCmd {
		return name == "format_path" || name == "format", false
	}
	if cmd == pfunctCmd {
		for _, f := range pfunctFlags {
			if f.name == name {
				return f.arg != "", f.optional
			}
		}
		return false, false
	}
	var strs []string
	f := newPaholeFlags(&paholeConfig{}, &strs, &strs, &strs, &strs, map[string]*bool{}, map[string]*bool{}).Lookup(name)
	if f == nil || f.Value.Type() == "bool" {
		return false, false
	}
	return true, f.NoOptDefVal != ""
}

func argpValue(cmd *cobra.Command, name string) string {
	if takes, _ := argpTakesValue(cmd, name); takes {
		return "=1"
	}
	return ""
}

func argpShortValue(cmd *cobra.Command, name string) string {
	if takes, _ := argpTakesValue(cmd, name); takes {
		return "1"
	}
	return ""
}
