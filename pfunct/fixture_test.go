package pfunct_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The oracle is the pfunct on PATH, pahole 1.32's (testenv puts sid's
// first), run at test time. The input is testdata/funcs1.c and funcs2.c,
// compiled at test time by gcc and clang (DWARF 4 and 5, -O0 and -O2) and
// joined with `ld -r` into one object of two units; for -F btf, a copy
// with the BTF pahole -J adds.

var fixtureSrc = []string{"funcs1.c", "funcs2.c"}

// fixtureCase is one pfunct command line run on a fixture object: on its
// DWARF, or with btf set on its BTF (-F btf is part of args then).
type fixtureCase struct {
	args []string
	btf  bool
}

func (c fixtureCase) name() string {
	s := strings.Join(c.args, " ")
	if s == "" {
		s = "(no options)"
	}
	return s
}

// fixtureCases: every option of pfunct, alone and in the combinations
// that change what it does, from DWARF and from BTF.
func fixtureCases() []fixtureCase {
	opts := [][]string{
		nil, {"-P"}, {"--prototypes"}, {"-s"}, {"-p"}, {"-N"}, {"-g"}, {"-S"}, {"-i"}, {"-I"}, {"-t"},
		{"-E"}, {"-G"}, {"-H"}, {"-l"}, {"-T"}, {"-V"}, {"-V", "-T"}, {"-V", "-i"}, {"-E", "-V"},
		{"-G", "-V"}, {"-H", "-P"}, {"-t", "-E"}, {"-P", "-l"}, {"-l", "-i"},
		{"-f", "helper"}, {"-f", "call_many"}, {"--function=dup_static"}, {"-f", "dup_static", "-V"},
		{"-f", "no_such_function"}, {"-T", "-f", "call_many"}, {"-i", "-f", "call_many"},
		{"-c", "point"}, {"-c", "list"}, {"--class=point", "-V"},
		{"-b"}, {"--expand_types", "-f", "labels"}, {"-V", "-b"}, {"-f", "dup_static", "-b"},
		{"--compile"}, {"--compile=ret_anon"}, {"--compile=helper"},
		{"--no_parm_names"}, {"-P", "--no_parm_names"},
		{"-A"}, {"--all"}, {"-A", "-f", "dup_static"}, {"-A", "-b"},
		{"-a", "0x10003"}, {"--addr=0x10020"}, {"-a", "5"},
		{"--symtab"}, {"--symtab=.dynsym"},
	}
	var cs []fixtureCase
	for _, o := range opts {
		cs = append(cs, fixtureCase{args: o})
		if len(o) > 0 && strings.HasPrefix(o[0], "--symtab") {
			continue
		}
		cs = append(cs, fixtureCase{args: append([]string{"-F", "btf"}, o...), btf: true})
	}
	return cs
}

// fixtureObject builds the fixture for one variant: DWARF and BTF copies.
func fixtureObject(t *testing.T, v testc.Variant) (dwarfObj, btfObj string) {
	t.Helper()
	return linkedObject(t, v, "funcs", fixtureSrc, nil)
}

// linkedObject compiles testdata's srcs for variant v (with cflags),
// joins them with `ld -r` into NAME.o and makes NAME-btf.o, a copy with
// the BTF `pahole -J JFLAGS...` adds.
func linkedObject(t *testing.T, v testc.Variant, name string, srcs, cflags []string, jflags ...string) (dwarfObj, btfObj string) {
	t.Helper()
	testc.Require(t, "ld", "pahole")
	var objs []string
	for _, s := range srcs {
		src, err := filepath.Abs(filepath.Join("testdata", s))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, v, cflags...))
	}
	dir := t.TempDir()
	dwarfObj = filepath.Join(dir, name+".o")
	testc.Run(t, "ld", append([]string{"-r", "-o", dwarfObj}, objs...)...)
	btfObj = filepath.Join(dir, name+"-btf.o")
	b, err := os.ReadFile(dwarfObj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(btfObj, b, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "pahole", append(append([]string{"-J"}, jflags...), btfObj)...)
	return dwarfObj, btfObj
}

// result is what a pfunct run shows: its standard output and exit status.
type result struct {
	out  string
	code int
}

// runTool runs tool with args in dir (the fixtures are named relative to
// it: BTF listings print the file name).
func runTool(t testing.TB, dir, tool string, args ...string) result {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PAHOLE_VMLINUX_BTF_FILENAME=/nonexistent")
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", tool, strings.Join(args, " "), err)
	}
	return result{out.String(), code}
}

// pfunctLink is the btfkit binary under the name pfunct (argv[0]).
func pfunctLink(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "pfunct")
	if err := os.Symlink(testenv.Btfkit(t), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFixtures(t *testing.T) {
	testc.Require(t, "pfunct")
	ours := pfunctLink(t)
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			dwarfObj, btfObj := fixtureObject(t, v)
			for _, c := range fixtureCases() {
				obj := dwarfObj
				if c.btf {
					obj = btfObj
				}
				args := append(append([]string{}, c.args...), filepath.Base(obj))
				dir := filepath.Dir(obj)
				want := runTool(t, dir, "pfunct", args...)
				got := runTool(t, dir, ours, args...)
				if got != want {
					t.Errorf("pfunct %s: differs from pfunct 1.32:\n%s", c.name(), diffLines(got, want))
				}
			}
		})
	}
}

// compareTool runs tool (the oracle, pahole 1.32's, on PATH) and ours
// with each argument list in dir, and reports where diff finds their
// results differ.
func compareTool(t *testing.T, tool, ours, dir string, argLists [][]string, diff func(got, want result) string) {
	t.Helper()
	for _, args := range argLists {
		want := runTool(t, dir, tool, args...)
		got := runTool(t, dir, ours, args...)
		if d := diff(got, want); d != "" {
			t.Errorf("%s %s: differs from %s 1.32:\n%s", tool, strings.Join(args, " "), tool, d)
		}
	}
}

// exactDiff is "" when got and want are the same, else diffLines.
func exactDiff(got, want result) string {
	if got == want {
		return ""
	}
	return diffLines(got, want)
}

// diffLines shows the first lines where got and want differ.
func diffLines(got, want result) string {
	if got.code != want.code {
		return fmt.Sprintf("exit status %d, want %d", got.code, want.code)
	}
	g, w := strings.Split(got.out, "\n"), strings.Split(want.out, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "(same lines)"
}

// TestClasses: C++ types are named as pahole names them (a class is
// "class", and so is every struct of a C++98 unit), as pfunct 1.32 prints
// prototypes and function bodies, and -b emits them as pfunct does; g++
// and clang++, C++98 and C++14.
func TestClasses(t *testing.T) {
	ours, src := oracleSetup(t, "classes.cc")
	for _, cc := range []testc.Compiler{"g++", "clang++"} {
		for _, std := range []string{"-std=c++14", "-std=c++98"} {
			v := testc.Variant{CC: cc, Flags: []string{"-g", "-O2", std}}
			t.Run(v.Name(), func(t *testing.T) {
				obj := testc.Compile(t, src, v)
				comparePfunct(t, ours, obj, [][]string{nil, {"-P"}, {"-f", "use_box", "-V"}, {"-P", "--no_parm_names"}, {"-b"}, {"--compile"}})
			})
		}
	}
}

// comparePfunct runs pfunct 1.32 and ours (the btfkit binary named
// pfunct) on obj with each of the argument lists, and reports where they
// differ; it returns our results, by argument list.
func comparePfunct(t *testing.T, ours, obj string, argLists [][]string) []result {
	t.Helper()
	dir := filepath.Dir(obj)
	var res []result
	for _, args := range argLists {
		args := append(append([]string{}, args...), filepath.Base(obj))
		want := runTool(t, dir, "pfunct", args...)
		got := runTool(t, dir, ours, args...)
		if got != want {
			t.Errorf("pfunct %s: differs from pfunct 1.32:\n%s", strings.Join(args, " "), diffLines(got, want))
		}
		res = append(res, got)
	}
	return res
}

// oracleSetup skips without pfunct 1.32 and returns ours (the btfkit
// binary named pfunct) and the absolute path of testdata's source.
func oracleSetup(t *testing.T, source string) (ours, src string) {
	t.Helper()
	testc.Require(t, "pfunct")
	src, err := filepath.Abs(filepath.Join("testdata", source))
	if err != nil {
		t.Fatal(err)
	}
	return pfunctLink(t), src
}
