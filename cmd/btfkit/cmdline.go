package main

// The command line rules every cobra command shares, checked once before
// any command runs (rootCmd's PersistentPreRunE), so that no command can
// forget one:
//
//   - -o/--output FILE may not name one of the command's inputs (its
//     arguments, --base, --onto, --old-base, --module): that would
//     replace the input with the output, and an error stops the command
//     before it reads anything.
//     -o - is standard output (writeOutput).
//   - -j/--jobs N is 0 (one per CPU) or more, and not absurdly many.
//   - --format is the output format (dump, pretty); -F/--from the input
//     format (layout, pretty, encode), also spelt --format_path, pahole's
//     name for -F (addInputFormatAliases).
//   - a long flag may be spelt with underscores, as pahole spells its
//     options (--expand_types is --expand-types).
//   - a misspelt flag is answered with the flags it is close to
//     (flagSuggestions), as cobra does for misspelt commands.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// inputFlags are the flags that name input files besides the arguments
// (a string flag, or one given several times: minimize's --module).
var inputFlags = []string{"base", "onto", "old-base", "module"}

// maxJobs is the largest -j accepted: more workers than that only cost
// memory.
func maxJobs() int { return max(1024, 4*runtime.NumCPU()) }

func init() {
	rootCmd.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := checkJobs(cmd.Flags()); err != nil {
			return err
		}
		return checkOutput(cmd.Flags(), args)
	}
	rootCmd.SuggestionsMinimumDistance = 2
	rootCmd.SetFlagErrorFunc(flagError)
	// pahole's spelling of a long option, with underscores, is the same
	// option (layout --expand_types is --expand-types); commands added
	// later inherit it from rootCmd.
	rootCmd.SetGlobalNormalizationFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
	})
}

// checkJobs refuses a negative or absurd -j.
func checkJobs(fs *pflag.FlagSet) error {
	f := fs.Lookup("jobs")
	if f == nil || !f.Changed {
		return nil
	}
	n, err := fs.GetInt("jobs")
	if err != nil {
		return nil // not an int flag
	}
	switch {
	case n < 0:
		return fmt.Errorf("-j %d: the number of jobs cannot be negative (0 means one per CPU)", n)
	case n > maxJobs():
		return fmt.Errorf("-j %d: too many jobs; at most %d (this machine has %d CPUs)", n, maxJobs(), runtime.NumCPU())
	}
	return nil
}

// checkOutput refuses an -o that names one of the inputs.
func checkOutput(fs *pflag.FlagSet, args []string) error {
	f := fs.Lookup("output")
	if f == nil || f.Value.Type() != "string" {
		return nil
	}
	out := f.Value.String()
	if out == "" || out == "-" {
		return nil
	}
	inputs := append([]string(nil), args...)
	for _, name := range inputFlags {
		in := fs.Lookup(name)
		switch {
		case in == nil:
		case in.Value.Type() == "string" && in.Value.String() != "":
			inputs = append(inputs, in.Value.String())
		case in.Value.Type() == "stringArray":
			if sv, ok := in.Value.(pflag.SliceValue); ok {
				inputs = append(inputs, sv.GetSlice()...)
			}
		}
	}
	for _, in := range inputs {
		if !sameFile(in, out) {
			continue
		}
		also := ""
		if in != out {
			also = " (" + in + ")"
		}
		return fmt.Errorf("%s: -o names an input%s, which the output would replace: write to another file", out, also)
	}
	return nil
}

// sameFile reports whether two paths name one file: the same path, or the
// same file through links.
func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb) && sa.Mode().IsRegular()
}

// flagError adds to pflag's "unknown flag" error the command's flags
// whose names are close to the one given: within
// SuggestionsMinimumDistance edits, a prefix, or the same but for
// underscores (pahole's spelling).
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	var name string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		name = strings.TrimPrefix(msg, "unknown flag: --")
	default:
		return err
	}
	name, _, _ = strings.Cut(name, "=")
	sugg := flagSuggestions(cmd, name)
	if len(sugg) == 0 {
		return err
	}
	return errors.New(msg + "\n\nDid you mean this?\n\t--" + strings.Join(sugg, "\n\t--"))
}

// flagSuggestions returns the names of cmd's flags close to name.
func flagSuggestions(cmd *cobra.Command, name string) []string {
	dist := cmd.SuggestionsMinimumDistance
	if dist <= 0 {
		dist = rootCmd.SuggestionsMinimumDistance
	}
	want := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		d := levenshtein(want, f.Name)
		if d <= dist || (len(want) >= 3 && strings.HasPrefix(f.Name, want)) {
			seen[f.Name] = true
			cands = append(cands, cand{f.Name, d})
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	// The closest first.
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	var out []string
	for _, c := range cands {
		out = append(out, c.name)
	}
	return out
}

// levenshtein is the edit distance between a and b.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// addFlagAlias adds alias to fs as another, hidden name of the flag name:
// both set the same value. With deprecated, using the alias prints that
// message (pflag's "Flag --alias has been deprecated, ...").
func addFlagAlias(fs *pflag.FlagSet, name, alias, deprecated string) {
	f := fs.Lookup(name)
	a := fs.VarPF(f.Value, alias, "", f.Usage)
	a.NoOptDefVal = f.NoOptDefVal
	a.Hidden = true
	if deprecated != "" {
		if err := fs.MarkDeprecated(alias, deprecated); err != nil {
			panic(err)
		}
	}
}

// addInputFormatAliases adds pahole's long name of -F, --format_path, to a
// command whose -F is --from.
func addInputFormatAliases(fs *pflag.FlagSet) {
	addFlagAlias(fs, "from", "format-path", "")
}
