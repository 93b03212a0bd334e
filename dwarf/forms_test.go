package dwarf

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestUsesForm: the units whose abbreviation tables declare
// DW_FORM_ref_addr, against readelf's listing of .debug_abbrev, on an
// LTO link (where units refer to each other) and on a plain object.
func TestUsesForm(t *testing.T) {
	testc.Require(t, "gcc", "readelf")
	dir := t.TempDir()
	srcs := map[string]string{
		"a.c": "int b(int);\nstatic inline int sq(int x) { return x * x; }\nint a(int x) { return b(x) + sq(x); }\n",
		"b.c": "int a(int);\nint b(int x) { return x > 0 ? a(x - 1) : 1; }\n",
	}
	var objs []string
	for _, name := range []string{"a.c", "b.c"} {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(srcs[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		o := strings.TrimSuffix(src, ".c") + ".o"
		testc.Run(t, "gcc", "-g", "-O2", "-flto", "-fPIC", "-c", "-o", o, src)
		objs = append(objs, o)
	}
	lto := filepath.Join(dir, "lto.so")
	testc.Run(t, "gcc", append([]string{"-g", "-O2", "-flto", "-fPIC", "-shared", "-nostdlib", "-o", lto}, objs...)...)
	plain := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})

	tableStart := regexp.MustCompile(`^\s*Number TAG \((?:0x)?([0-9a-f]+)\)`)
	for _, path := range []string{lto, plain} {
		// readelf: tables by offset, and whether each declares ref_addr.
		withRefAddr := map[uint64]bool{}
		cur := uint64(0)
		for _, l := range strings.Split(string(testc.Output(t, "readelf", "--debug-dump=abbrev", path)), "\n") {
			if m := tableStart.FindStringSubmatch(l); m != nil {
				cur = parseHex(t, m[1])
				withRefAddr[cur] = false
			}
			if strings.Contains(l, "DW_FORM_ref_addr") {
				withRefAddr[cur] = true
			}
		}
		d, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		units := d.Units()
		for i := range units {
			u := &units[i]
			got, err := d.UsesForm(u, FormRefAddr)
			if err != nil {
				t.Fatal(err)
			}
			want, ok := withRefAddr[u.AbbrevOffset]
			if !ok {
				t.Errorf("%s: readelf lists no abbreviation table at 0x%x", path, u.AbbrevOffset)
			}
			if got != want {
				t.Errorf("%s: unit at 0x%x: UsesForm(ref_addr) %v, readelf: %v", path, u.Offset, got, want)
			}
			if got {
				n++
			}
		}
		d.Close()
		if path == lto && n == 0 {
			t.Errorf("%s: no unit of the LTO link uses DW_FORM_ref_addr", path)
		}
		if path == plain && n != 0 {
			t.Errorf("%s: %d units of a plain object use DW_FORM_ref_addr", path, n)
		}
	}
}

func parseHex(t *testing.T, s string) uint64 {
	t.Helper()
	var v uint64
	for _, c := range s {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= uint64(c - '0')
		default:
			v |= uint64(c-'a') + 10
		}
	}
	return v
}
