package pfunct_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/internal/testenv"
)

// The oracle is pfunct: Debian's 1.24 (on PATH) at test time where it and
// pahole 1.31's pfunct print the same, pfunct 1.31's committed output
// (testdata/pfunct-1.31/VARIANT.txt) where they differ. The input is
// testdata/funcs1.c and funcs2.c, compiled at test time by gcc and clang
// (DWARF 4 and 5, -O0 and -O2) and joined with `ld -r` into one object of
// two units; for -F btf, a copy with the BTF Debian's pahole -J adds.
//
// The committed outputs are made by `scripts/pfunct-testdata`, which runs
// this test with -update: for every case it runs both pfuncts on the same
// object and keeps 1.31's output where the two differ. They hold for the
// compilers they were made with (Debian 12's gcc 12.2 and clang 14, noted
// in each file); other compilers lay the DWARF out otherwise.

var (
	update     = flag.Bool("update", false, "write testdata/pfunct-1.31/*.txt from -pfunct131's output where it differs from pfunct's on PATH")
	pfunct131  = flag.String("pfunct131", "", "upstream pahole 1.31's pfunct, for -update")
	goldenDir  = filepath.Join("testdata", "pfunct-1.31")
	fixtureSrc = []string{"funcs1.c", "funcs2.c"}
)

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
	testc.Require(t, "ld", "pahole")
	var objs []string
	for _, s := range fixtureSrc {
		src, err := filepath.Abs(filepath.Join("testdata", s))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, v))
	}
	dir := t.TempDir()
	dwarfObj = filepath.Join(dir, "funcs.o")
	testc.Run(t, "ld", append([]string{"-r", "-o", dwarfObj}, objs...)...)
	btfObj = filepath.Join(dir, "funcs-btf.o")
	b, err := os.ReadFile(dwarfObj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(btfObj, b, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "pahole", "-J", btfObj)
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
			goldenPath := filepath.Join(goldenDir, v.Name()+".txt")
			if *update {
				if *pfunct131 == "" {
					t.Fatal("-update needs -pfunct131=PATH (scripts/pfunct-testdata passes it)")
				}
				writeGolden(t, goldenPath, dwarfObj, btfObj)
				return
			}
			golden := readGolden(t, goldenPath)
			for _, c := range fixtureCases() {
				obj := dwarfObj
				if c.btf {
					obj = btfObj
				}
				args := append(append([]string{}, c.args...), filepath.Base(obj))
				dir := filepath.Dir(obj)
				want, ok := golden[c.name()]
				if !ok {
					want = runTool(t, dir, "pfunct", args...)
				}
				got := runTool(t, dir, ours, args...)
				if got != want {
					oracle := "pfunct 1.24"
					if ok {
						oracle = "pfunct 1.31 (" + goldenPath + ")"
					}
					t.Errorf("pfunct %s: differs from %s:\n%s", c.name(), oracle, diffLines(got, want))
				}
			}
		})
	}
}

// compilers is what the committed outputs were made with.
func compilers(t *testing.T) string {
	var b strings.Builder
	for _, cc := range []string{"gcc", "clang", "pahole"} {
		out, err := exec.Command(cc, "--version").Output()
		if err != nil {
			t.Fatalf("%s --version: %v", cc, err)
		}
		b.WriteString(strings.SplitN(string(out), "\n", 2)[0])
		b.WriteString("; ")
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// testdataMark stands for this package's testdata directory in the
// committed outputs: pfunct prints the fixtures' source paths, which are
// absolute (the objects are compiled from testdataDir), and a clone may be
// anywhere.
const testdataMark = "@TESTDATA@"

// testdataDir is the absolute path of this package's testdata directory.
func testdataDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The committed output file: a line "# made with: COMPILERS", then for
// each case whose 1.31 output differs from 1.24's a line "@@ LEN CODE
// CASE" and LEN bytes of output.
func writeGolden(t *testing.T, path, dwarfObj, btfObj string) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# pfunct 1.31's output where it differs from 1.24's; made by scripts/pfunct-testdata with: %s\n", compilers(t))
	n := 0
	for _, c := range fixtureCases() {
		obj := dwarfObj
		if c.btf {
			obj = btfObj
		}
		args := append(append([]string{}, c.args...), filepath.Base(obj))
		old := runTool(t, filepath.Dir(obj), "pfunct", args...)
		want := runTool(t, filepath.Dir(obj), *pfunct131, args...)
		if old == want {
			continue
		}
		want.out = strings.ReplaceAll(want.out, testdataDir(t), testdataMark)
		fmt.Fprintf(&b, "@@ %d %d %s\n%s", len(want.out), want.code, c.name(), want.out)
		n++
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d cases where 1.31 differs", path, n)
}

func readGolden(t *testing.T, path string) map[string]result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (made by scripts/pfunct-testdata)", err)
	}
	m := map[string]result{}
	hdr, rest, _ := bytes.Cut(data, []byte("\n"))
	if want := compilers(t); !strings.HasSuffix(string(hdr), want) {
		testenv.SkipOrFail(t, "%s was made with other compilers than these (%s): %s", path, want, hdr)
	}
	for len(rest) > 0 {
		line, body, ok := bytes.Cut(rest, []byte("\n"))
		f := strings.SplitN(string(line), " ", 4)
		if !ok || len(f) < 3 || f[0] != "@@" {
			t.Fatalf("%s: bad record %q", path, line)
		}
		n, err1 := strconv.Atoi(f[1])
		code, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || n > len(body) {
			t.Fatalf("%s: bad record %q", path, line)
		}
		name := ""
		if len(f) == 4 {
			name = f[3]
		}
		m[name] = result{strings.ReplaceAll(string(body[:n]), testdataMark, testdataDir(t)), code}
		rest = body[n:]
	}
	return m
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
