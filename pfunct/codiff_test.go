package pfunct_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/pfunct"
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
			compareTool(t, "codiff", ours, filepath.Dir(oldObj), cases, exactDiff)
		})
	}
}

// TestCodiffJSON: `btfkit codiff --format json` of the fixture builds
// lists exactly the structs, members and functions `codiff -V` lists,
// each change with its kind, and exits 1; identical builds give no
// change and exit 0.
func TestCodiffJSON(t *testing.T) {
	bin := testenv.Btfkit(t)
	for _, v := range []testc.Variant{{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}, {CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O0"}}} {
		t.Run(v.Name(), func(t *testing.T) {
			oldObj, oldUnits := codiffBuild(t, "old", v)
			newObj, newUnits := codiffBuild(t, "new", v)
			dir := filepath.Dir(oldObj)
			for _, pair := range [][2]string{{oldObj, newObj}, {newObj, oldObj}, {oldUnits["conn.c"], newUnits["conn.c"]}} {
				text := runTool(t, dir, bin, "codiff", "-V", pair[0], pair[1])
				js := runTool(t, dir, bin, "codiff", "--format", "json", pair[0], pair[1])
				if text.code != 1 || js.code != 1 {
					t.Errorf("codiff %s %s: exit status %d (text), %d (json), want 1", pair[0], pair[1], text.code, js.code)
				}
				var r pfunct.CodiffResult
				if err := json.Unmarshal([]byte(js.out), &r); err != nil {
					t.Fatalf("codiff --format json: %v\n%s", err, js.out)
				}
				if !r.Changed {
					t.Errorf("codiff --format json %s %s: changed is false", pair[0], pair[1])
				}
				got := map[string]bool{}
				kinds := map[string]bool{}
				for _, u := range r.Units {
					for _, s := range u.Structs {
						got[u.Name+"|struct "+s.Name] = true
						for _, c := range s.Changes {
							kinds[c.Kind] = true
							if c.Member != "" {
								got[u.Name+"|struct "+s.Name+"|"+c.Member] = true
							}
						}
					}
					for _, f := range u.Functions {
						kinds[f.Kind] = true
						got[u.Name+"|"+f.Name] = true
					}
				}
				want := codiffTextChanges(text.out)
				for k := range want {
					if !got[k] {
						t.Errorf("codiff %s %s: the text lists %q, the JSON does not", pair[0], pair[1], k)
					}
				}
				for k := range got {
					if !want[k] {
						t.Errorf("codiff %s %s: the JSON lists %q, the text does not", pair[0], pair[1], k)
					}
				}
				if pair[0] == oldObj {
					for _, k := range []string{pfunct.MemberAdded, pfunct.MemberRemoved, pfunct.MemberMoved, pfunct.MemberResized, pfunct.MemberTypeChanged, pfunct.FunctionPrototypeChanged, pfunct.FunctionSizeChanged, pfunct.FunctionRemoved, pfunct.FunctionAdded} {
						if !kinds[k] {
							t.Errorf("codiff --format json old new: no change of kind %s", k)
						}
					}
				}
			}
			for _, obj := range []string{oldObj, newObj} {
				js := runTool(t, dir, bin, "codiff", "--format", "json", obj, obj)
				text := runTool(t, dir, bin, "codiff", obj, obj)
				var r pfunct.CodiffResult
				if err := json.Unmarshal([]byte(js.out), &r); err != nil {
					t.Fatal(err)
				}
				if js.code != 0 || text.code != 0 || r.Changed || len(r.Units) != 0 || text.out != "" {
					t.Errorf("codiff of %s with itself: exit %d (json), %d (text), changed %v, %d units, text %q", obj, js.code, text.code, r.Changed, len(r.Units), text.out)
				}
			}
		})
	}
}

// codiffTextChanges are the structs ("UNIT|struct NAME"), their members
// ("UNIT|struct NAME|MEMBER") and the functions ("UNIT|NAME") codiff -V's
// text lists.
func codiffTextChanges(out string) map[string]bool {
	m := map[string]bool{}
	unit, st := "", ""
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		switch {
		case l == "":
		case !strings.HasPrefix(l, " ") && strings.HasSuffix(l, ":"):
			unit, st = strings.TrimSuffix(l, ":"), ""
		case strings.HasPrefix(l, "  struct ") && strings.Contains(l, " | "):
			st = strings.TrimSpace(strings.TrimPrefix(strings.SplitN(l, " | ", 2)[0], "  struct "))
			m[unit+"|struct "+st] = true
		case strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "     ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "     "):
			m[unit+"|struct "+st+"|"+strings.TrimSpace(l)] = true
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && strings.Contains(l, " | "):
			m[unit+"|"+strings.TrimSpace(strings.SplitN(l, " | ", 2)[0])] = true
		}
	}
	return m
}
