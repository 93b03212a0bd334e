package pfunct_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// pglobal (package pfunct's Globals, `btfkit pglobal`) against the pglobal
// on PATH, pahole 1.32's, run at test time: testdata/globals1.c and
// globals2.c compiled by gcc and clang (DWARF 4 and 5, -O0 and -O2, with
// -fcommon so that a tentative definition is in both units) and joined
// with `ld -r`; for -F btf, a copy with the BTF pahole -J adds, global
// variables included.

// toolLink is the btfkit binary under the name tool (argv[0]).
func toolLink(t *testing.T, tool string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), tool)
	if err := os.Symlink(testenv.Btfkit(t), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func globalsObject(t *testing.T, v testc.Variant) (dwarfObj, btfObj string) {
	t.Helper()
	return linkedObject(t, v, "globals", []string{"globals1.c", "globals2.c"}, []string{"-fcommon"}, "--btf_features=default,global_var")
}

// TestGlobalsFixtures: every pglobal option, from DWARF and from BTF, and
// its command line errors: standard output and exit status as pglobal
// 1.32's.
func TestGlobalsFixtures(t *testing.T) {
	testc.Require(t, "pglobal")
	ours := toolLink(t, "pglobal")
	cases := [][]string{
		{"-v", "DWARF"}, {"-f", "DWARF"}, {"--variables", "DWARF"}, {"--functions", "DWARF"},
		{"DWARF"}, {"-vf", "DWARF"}, {"-V", "-f", "DWARF"}, {"--var", "DWARF"},
		{"-v", "DWARF", "DWARF"}, {"-f", "DWARF", "DWARF"}, {"-F", "dwarf", "-v", "DWARF"},
		{"-F", "btf", "-v", "BTF"}, {"-F", "btf", "-f", "BTF"}, {"--format_path=btf", "-v", "BTF", "BTF"},
		{"-F", "btf,dwarf", "-v", "DWARF"}, {"-F", "dwarf,btf", "-v", "BTF"},
		// errors: nothing printed, status 1 (64 for the command line)
		{"-v", "DWARF", "nonexistent"}, {"-F", "btf", "-v", "DWARF"}, {"-F", "foo", "-v", "DWARF"},
		{}, {"-x", "DWARF"}, {"--v", "DWARF"}, {"-F"}, {"--variables=1", "DWARF"},
		{"--help"}, {"-?"}, {"--usage"}, {"--version"}, {"--he"},
	}
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			dwarfObj, btfObj := globalsObject(t, v)
			var argLists [][]string
			for _, c := range cases {
				args := make([]string, len(c))
				for i, a := range c {
					switch a {
					case "DWARF":
						a = filepath.Base(dwarfObj)
					case "BTF":
						a = filepath.Base(btfObj)
					}
					args[i] = a
				}
				argLists = append(argLists, args)
			}
			compareTool(t, "pglobal", ours, filepath.Dir(dwarfObj), argLists, exactDiff)
		})
	}
}

// TestGlobalsKernel: `pglobal -v` and `pglobal -f` of the Debian 6.1
// vmlinux's DWARF (8,250 and 48,784 lines) against pglobal 1.32 run now
// (about 10 s each).
func TestGlobalsKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the whole vmlinux DWARF")
	}
	testc.Require(t, "pglobal")
	vmlinux, _ := testenv.KernelInputs(t)
	ours := toolLink(t, "pglobal")
	for _, opt := range []string{"-v", "-f"} {
		want, err := exec.Command("pglobal", opt, vmlinux).Output()
		if err != nil {
			t.Fatalf("pglobal %s: %v", opt, err)
		}
		got := runTool(t, "", ours, opt, vmlinux)
		if got.code != 0 || got.out != string(want) {
			t.Errorf("pglobal %s vmlinux: %s", opt, diffLines(got, result{string(want), 0}))
		}
	}
}

// TestPrefcntFixtures: `btfkit prefcnt` against the prefcnt on PATH
// (1.32's), on testdata/refcnt.c (pahole's prefcnt_coverage.sh's) and
// the pglobal fixture, for each compiler, DWARF version and
// optimization, with files that do not load among them: standard output
// (none: see cmd/btfkit/prefcnt.go) and exit status. prefcnt 1.32
// crashes on BTF with functions and without a FILE, so neither is
// compared.
func TestPrefcntFixtures(t *testing.T) {
	testc.Require(t, "prefcnt")
	ours := toolLink(t, "prefcnt")
	src, err := filepath.Abs(filepath.Join("testdata", "refcnt.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			obj := testc.Compile(t, src, v)
			globals, _ := globalsObject(t, v)
			compareTool(t, "prefcnt", ours, filepath.Dir(obj), [][]string{
				{obj}, {obj, globals}, {obj, "nonexistent"}, {"nonexistent", obj},
				{"--help"}, {"-v", obj}, {"--", obj}, {obj, "/"},
			}, exactDiff)
		})
	}
}

// TestPrefcntKernel: prefcnt 1.32 prints nothing for the Debian 6.1
// vmlinux and exits 0 (it takes 30 s; testdata/README.md); so must
// btfkit's.
func TestPrefcntKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the whole vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	got := runTool(t, "", toolLink(t, "prefcnt"), vmlinux)
	if got != (result{}) {
		t.Errorf("prefcnt vmlinux: %s", diffLines(got, result{}))
	}
}
