package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// paholeHelpFlags returns the flag set --help is made from.
func paholeHelpFlags() *pflag.FlagSet {
	var strs []string
	return newPaholeFlags(&paholeConfig{}, &strs, &strs, &strs, &strs, map[string]*bool{}, map[string]*bool{})
}

// TestPaholeHelpTellsTruth: `btfkit pahole --help` and `btfkit help pahole`
// say what the command does (it encodes, prints layouts and --prettify;
// it used to say "BTF encoding only" and "layout printing options are
// recognized but refused"), list --prettify's options, and list every
// option that parses, and the refused ones as refused.
func TestPaholeHelpTellsTruth(t *testing.T) {
	help, errOut, code := runPahole(t, "--help")
	if code != 0 || errOut != "" {
		t.Fatalf("pahole --help: status %d, stderr %q", code, errOut)
	}
	long, _, code := btfkit(t, "help", "pahole")
	if code != 0 {
		t.Fatalf("btfkit help pahole: status %d", code)
	}
	for _, c := range []struct{ what, text, false_ string }{
		{"pahole --help", help, "BTF encoding only"},
		{"btfkit help pahole", long, "recognized but refused"},
		{"btfkit help pahole", long, "Only BTF encoding"},
		{"btfkit help pahole", long, "1.31"},
	} {
		if strings.Contains(c.text, c.false_) {
			t.Errorf("%s says %q", c.what, c.false_)
		}
	}
	for _, opt := range []string{"--prettify=", "--header_type=", "--range=", "--seek_bytes=", "--size_bytes=", "--count=", "--skip="} {
		if !strings.Contains(help, "\n      "+opt) {
			t.Errorf("pahole --help does not list %s", opt)
		}
	}
	for _, s := range []string{"-J", "layouts", "--prettify"} {
		if !strings.Contains(long, s) {
			t.Errorf("btfkit help pahole does not mention %s:\n%s", s, long)
		}
	}
	// Every option is listed: those that parse as options, those refused
	// in their own section.
	refusedAt := strings.Index(help, "does not implement:\n")
	if refusedAt < 0 {
		t.Fatalf("pahole --help has no section of refused options:\n%s", help)
	}
	options, refused := help[:refusedAt], help[refusedAt:]
	paholeHelpFlags().VisitAll(func(f *pflag.Flag) {
		listed := regexp.MustCompile(`(?m)^  (-., |    )--` + f.Name + `\b`).MatchString(options)
		if f.Hidden == listed {
			t.Errorf("--%s: hidden %v, listed among the options %v", f.Name, f.Hidden, listed)
		}
	})
	for _, u := range paholeUnsupported {
		if !strings.Contains(refused, "--"+u.name+":") || !strings.Contains(long, "--"+u.name) {
			t.Errorf("--%s is refused, but the help does not say so", u.name)
		}
	}
}

// TestPaholeUnsupportedRefused: the options paholeUnsupported lists are
// refused when printing layouts, and no other option is (it used to list
// --prettify, -E, -C, --hex and most others btfkit implements).
func TestPaholeUnsupportedRefused(t *testing.T) {
	unsupported := map[string]bool{}
	for _, u := range paholeUnsupported {
		unsupported[u.name] = true
		arg := "--" + u.name
		if u.arg {
			arg += "=1"
		}
		_, _, err := parsePahole([]string{arg, "f.o"})
		if err == nil || !strings.Contains(err.Error(), "does not implement") {
			t.Errorf("pahole %s f.o: %v, want refused", arg, err)
		}
		if paholeLayoutFlagNamed(u.name) {
			t.Errorf("--%s is both refused and a registered layout option", u.name)
		}
	}
	paholeHelpFlags().VisitAll(func(f *pflag.Flag) {
		if unsupported[f.Name] {
			return
		}
		arg := "--" + f.Name
		if f.Value.Type() != "bool" && f.NoOptDefVal == "" {
			arg += "=1"
		}
		_, _, err := parsePahole([]string{arg, "f.o"})
		if err != nil && strings.Contains(err.Error(), "does not implement") {
			t.Errorf("pahole %s f.o: %v, but --help lists it as an option", arg, err)
		}
	})
}

// paholeManOnly are options pahole 1.32's manual page documents that its
// program does not have: -O/--dwarf_offset went with pahole's DWARF
// offset lookup (pahole 1.32 says "invalid option -- 'O'"); btfkit
// refuses it the same way.
var paholeManOnly = map[string]bool{"dwarf_offset": true}

// paholeManOptionsFile is the list of pahole 1.32's options, one a line:
// the long name, the short letter or "-", and where it is documented
// ("man", "help" or "man,help"). It is pahole132Options' result, kept so
// that the check runs where sid's pahole is not installed.
const paholeManOptionsFile = "pahole-1.32/options.txt"

// pahole132Options reads the options of pahole 1.32 from its manual page
// (the ".B \-X, \-\-name" lines of its OPTIONS) and from its --help, both
// sid's, in paholeManOptionsFile's form; ok is false when sid's pahole is
// not installed here.
func pahole132Options(t *testing.T) (list string, ok bool) {
	man := filepath.Join(testenv.SidDir(), "root/usr/share/man/man1/pahole.1.gz")
	bin := testenv.DwarvesDir()
	if bin == "" {
		return "", false
	}
	f, err := os.Open(man)
	if err != nil {
		return "", false
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", man, err)
	}
	page, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", man, err)
	}
	help, err := exec.Command(filepath.Join(bin, "pahole"), "--help").Output()
	if err != nil {
		t.Fatalf("pahole --help: %v", err)
	}
	type opt struct {
		short string
		from  []string
	}
	opts := map[string]*opt{}
	add := func(from, short, name string) {
		o := opts[name]
		if o == nil {
			o = &opt{short: "-"}
			opts[name] = o
		}
		if short != "" {
			o.short = short
		}
		if len(o.from) == 0 || o.from[len(o.from)-1] != from {
			o.from = append(o.from, from)
		}
	}
	manRe := regexp.MustCompile(`^\.B (?:\\-(\S), )?\\-\\-([a-z0-9_]+)`)
	sc := bufio.NewScanner(strings.NewReader(string(page)))
	for sc.Scan() {
		if m := manRe.FindStringSubmatch(sc.Text()); m != nil {
			add("man", m[1], m[2])
		}
	}
	// An option line, not a continuation naming an option ("use
	// --encode_btf_global_vars]."): the name ends the line or is followed
	// by its argument or blanks.
	helpRe := regexp.MustCompile(`^\s+(?:-(\S), )?--([a-z0-9_]+)(?:$|[ =\[])`)
	sc = bufio.NewScanner(strings.NewReader(string(help)))
	for sc.Scan() {
		if m := helpRe.FindStringSubmatch(sc.Text()); m != nil {
			add("help", m[1], m[2])
		}
	}
	var names []string
	for n := range opts {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s %s\n", n, opts[n].short, strings.Join(opts[n].from, ","))
	}
	return b.String(), true
}

// TestPaholeManOptions: every option of pahole 1.32, as its manual page
// and its --help document them, is either implemented (an option btfkit
// pahole's --help lists, under that name or as the only option the name
// is a prefix of, with the same short letter) or refused as not
// implemented (paholeUnsupported), or absent from pahole's program too
// (paholeManOnly).
func TestPaholeManOptions(t *testing.T) {
	stored, err := os.ReadFile(testenv.Reference(t, paholeManOptionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if live, ok := pahole132Options(t); !ok {
		testenv.SkipPartOrFail(t, "sid's pahole 1.32 and its manual page not installed (scripts/sid-tools); checking the stored list %s only", paholeManOptionsFile)
	} else if live != string(stored) {
		t.Errorf("testdata/reference/%s is not what sid's pahole documents; it should be:\n%s", paholeManOptionsFile, live)
	}
	fs := paholeHelpFlags()
	unsupported := map[string]bool{}
	for _, u := range paholeUnsupported {
		unsupported[u.name] = true
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(stored)), "\n") {
		fields := strings.Fields(line)
		if len(fields) != 3 {
			t.Fatalf("%s: bad line %q", paholeManOptionsFile, line)
		}
		name, short := fields[0], fields[1]
		n++
		switch {
		case paholeManOnly[name]:
			if strings.Contains(fields[2], "help") {
				t.Errorf("--%s is in pahole's --help, not only its manual page", name)
			}
			if fs.Lookup(name) != nil || (short != "-" && fs.ShorthandLookup(short) != nil) {
				t.Errorf("--%s: pahole 1.32 refuses it, btfkit pahole takes it", name)
			}
			continue
		case unsupported[name]:
			continue
		}
		args, err := paholeLongPrefixes(fs, []string{"--" + name})
		if err != nil {
			t.Errorf("--%s: %v", name, err)
			continue
		}
		f := fs.Lookup(strings.TrimPrefix(args[0], "--"))
		switch {
		case f == nil:
			t.Errorf("pahole 1.32 documents --%s (%s); btfkit pahole neither implements it nor lists it in paholeUnsupported", name, fields[2])
		case f.Hidden:
			t.Errorf("--%s is taken but not listed in --help", name)
		case short != "-" && f.Shorthand != short:
			t.Errorf("--%s: short option -%s, pahole's is -%s", name, f.Shorthand, short)
		}
	}
	if n < 90 {
		t.Errorf("%s lists %d options; pahole 1.32 has over 90", paholeManOptionsFile, n)
	}
}
