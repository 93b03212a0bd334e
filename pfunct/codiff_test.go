package pfunct_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
)

// codiff (package pfunct's Codiff, the btfkit binary named codiff)
// against the codiff on PATH, pahole 1.32's, run at test time on two
// builds of testdata/codiff's "module": old/ (conn.c, queue.c) and new/
// (the same units changed, and added.c), each unit compiled by gcc or
// clang (DWARF 4 and 5, -O0 and -O2) with its directory mapped to "." so
// that both builds name their units alike, and linked with `ld -r`.

// codiffBuild compiles testdata/codiff/BUILD's units and returns the
// linked object and each unit's object, by file name.
func codiffBuild(t *testing.T, build string, v testc.Variant) (string, map[string]string) {
	t.Helper()
	testc.Require(t, "ld")
	dir, err := filepath.Abs(filepath.Join("testdata", "codiff", build))
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := filepath.Glob(filepath.Join(dir, "*.c"))
	if err != nil || len(srcs) == 0 {
		t.Fatalf("testdata/codiff/%s: %v", build, err)
	}
	units := map[string]string{}
	var objs []string
	for _, src := range srcs {
		obj := testc.Compile(t, src, v, "-fdebug-prefix-map="+dir+"=.")
		units[filepath.Base(src)] = obj
		objs = append(objs, obj)
	}
	out := filepath.Join(t.TempDir(), build+".o")
	testc.Run(t, "ld", append([]string{"-r", "-o", out}, objs...)...)
	return out, units
}

// TestCodiffFixtures: codiff's forms (default, -V, -t, -s, -f, -q) on the
// two builds both ways, on single units and on a build against one of
// the other's units, and its command line errors: standard output and
// exit status as codiff 1.32's.
func TestCodiffFixtures(t *testing.T) {
	testc.Require(t, "codiff")
	ours := toolLink(t, "codiff")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			oldObj, oldUnits := codiffBuild(t, "old", v)
			newObj, newUnits := codiffBuild(t, "new", v)
			oc, nc := oldUnits["conn.c"], newUnits["conn.c"]
			// the units in static libraries, one CU per member
			testc.Require(t, "ar")
			oldLib, newLib := filepath.Join(t.TempDir(), "old.a"), filepath.Join(t.TempDir(), "new.a")
			testc.Run(t, "ar", "rcs", oldLib, oc, oldUnits["queue.c"])
			testc.Run(t, "ar", "rcs", newLib, nc, newUnits["queue.c"], newUnits["added.c"])
			cases := [][]string{
				{oldObj, newObj}, {"-V", oldObj, newObj}, {"-t", oldObj, newObj}, {"-s", oldObj, newObj},
				{"-s", "-V", oldObj, newObj}, {"-f", oldObj, newObj}, {"-f", "-V", oldObj, newObj},
				{"-q", oldObj, newObj}, {"-q", "-V", oldObj, newObj}, {"--terse_type_changes", "--quiet", oldObj, newObj},
				{newObj, oldObj}, {"-V", newObj, oldObj}, {"-t", newObj, oldObj},
				{oc, nc}, {"-V", oc, nc}, {"-t", oc, nc}, {"-V", oldObj, nc}, {"-V", oc, newObj},
				{oldObj, oldObj}, {"-V", newObj, newObj}, {"/dev/null", newObj}, {"-V", oldObj, "/dev/null"},
				{oldObj, "nonexistent"}, {"nonexistent", newObj}, {oldObj}, {}, {oldObj, newObj, oc},
				{oldLib, newLib}, {"-V", oldLib, newLib}, {"-t", newLib, oldLib}, {"-V", oldObj, newLib},
				{"-x", oldObj, newObj}, {"--verb", oldObj, newObj}, {"--help"}, {"--usage"}, {"--version"},
			}
			dir := filepath.Dir(oldObj)
			for _, args := range cases {
				want := runTool(t, dir, "codiff", args...)
				got := runTool(t, dir, ours, args...)
				if got != want {
					t.Errorf("codiff %s: differs from codiff 1.32:\n%s", strings.Join(args, " "), diffLines(got, want))
				}
			}
		})
	}
}
