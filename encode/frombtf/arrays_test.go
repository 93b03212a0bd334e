package frombtf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// arraysSrc has multi-dimensional arrays of every shape C gives them:
// two and three dimensions, zero-length and flexible ones, qualified
// elements (gcc qualifies the array as well), a typedef of an array used
// as an element (gcc writes a two-dimensional array type for it), and
// one through typeof.
const arraysSrc = `typedef int row_t[4];
struct dims {
	int a[2][3];
	int z[0][5];
	char b[3][0];
	const int c[2][7];
	row_t r[3];
	long d[2][3][4];
	volatile short v[5][6];
	row_t q[2][5];
	int flex[][7];
};
struct holder { int arr[3]; row_t one; };
struct via_typeof { __typeof__(((struct holder *)0)->arr) y[2]; };
struct dims g_dims;
struct holder g_holder;
struct via_typeof g_typeof;
int g_grid[8][9];
const int g_const[2][3] = {{1, 2, 3}, {4, 5, 6}};
int arrays_use(struct dims *p) { return p->a[1][2] + g_grid[1][1] + g_const[1][1]; }
`

// TestArrayDimensions: pahole 1.32 writes a C multi-dimensional array as
// one ARRAY per dimension, outermost first, and so does the DWARF route;
// gcc 12's BTF has the same ARRAYs with the dimensions in reverse order
// (GCC PR debug/114186, fixed in gcc 14). The archive route puts them
// back when the file's .comment names only gcc releases before 14:
// on an object compiled with both DWARF and BTF by the host's gcc 12, its
// types equal pahole 1.32's from the DWARF (functions and variables
// aside) and the DWARF route's. Without .comment, or with a .comment
// naming gcc 14, it takes the ARRAYs as they are, and differs from the
// DWARF route in exactly the arrays' dimensions.
func TestArrayDimensions(t *testing.T) {
	testc.Require(t, "gcc", "objcopy", "pahole")
	dir := t.TempDir()
	src := filepath.Join(dir, "arrays.c")
	if err := os.WriteFile(src, []byte(arraysSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, src, gbtf)
	if v := string(testc.Output(t, "gcc", "-dumpversion")); !strings.HasPrefix(v, "12") {
		t.Logf("gcc %s: the test's expectations are gcc 12's", strings.TrimSpace(v))
	}
	if !gccReversesDims(openELF(t, obj)) {
		t.Fatalf("%s: its .comment does not name gcc 12 (%s)", obj, testc.Output(t, "readelf", "-p", ".comment", obj))
	}

	feat := encode.DefaultFeatures
	fromBTF, err := EncodeFile(obj, Options{Features: feat, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	fromDWARF, err := encode.EncodeFile(obj, encode.Options{Features: feat, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "pahole.btf")
	testc.Run(t, "pahole", "-J", "--btf_features=default", "--btf_encode_detached="+ref, obj)
	pahole, err := btf.LoadFile(ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	nested := 0
	for id := btf.TypeID(1); id < pahole.NextID(); id++ {
		if a := pahole.Type(id); a.Kind() == btf.KindArray && pahole.Type(a.Array().Elem).Kind() == btf.KindArray {
			nested++
		}
	}
	if nested < 10 {
		t.Errorf("pahole 1.32 wrote %d ARRAYs of ARRAYs; the fixture has a dozen", nested)
	}
	types := diff.Options{ExcludeKinds: []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}}
	if r := diff.Compare(fromBTF, pahole, types); !r.Equal() {
		t.Errorf("archive route (A) vs pahole 1.32 from DWARF (B):\n%s", strings.Join(r.Diffs, "\n"))
	}
	if r := diff.Compare(fromBTF, fromDWARF, diff.Options{}); !r.Equal() {
		t.Errorf("archive route (A) vs DWARF route (B):\n%s", strings.Join(r.Diffs, "\n"))
	}

	// The compiler unknown, or gcc 14: the ARRAYs as gcc 12 wrote them,
	// every multi-dimensional array reversed, nothing else different.
	gcc14 := filepath.Join(dir, "comment14")
	if err := os.WriteFile(gcc14, []byte("\x00GCC: (GNU) 14.2.0\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, how string }{
		{"no .comment", "--remove-section=.comment"},
		{"gcc 14", "--update-section=.comment=" + gcc14},
	} {
		o := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".o")
		testc.Run(t, "objcopy", c.how, obj, o)
		if gccReversesDims(openELF(t, o)) {
			t.Errorf("%s: taken as gcc before 14", c.name)
		}
		as, err := EncodeFile(o, Options{Features: feat, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		r := diff.Compare(as, fromDWARF, diff.Options{})
		if r.Equal() {
			t.Errorf("%s: equal to the DWARF route; gcc 12's dimensions are reversed", c.name)
		}
		for _, d := range r.Diffs {
			if !strings.Contains(d, "][") && !strings.HasPrefix(d, "# count ARRAY") {
				t.Errorf("%s: a difference that is not an array's dimensions: %s", c.name, d)
			}
		}
	}
}

// TestGCCMajor: the .comment strings of gcc's that distributions write.
func TestGCCMajor(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
		ok   bool
	}{
		{"GCC: (Debian 12.2.0-14+deb12u1) 12.2.0", 12, true},
		{"GCC: (GNU) 14.2.1 20240912 (Red Hat 14.2.1-3)", 14, true},
		{"GCC: (Ubuntu 13.2.0-23ubuntu4) 13.2.0", 13, true},
		{"GCC: (Gentoo 15.1.0 p1 (something)) 15.1.0", 15, true},
		{"GCC: 11.4.0", 11, true},
		{"clang version 14.0.6", 0, false},
		{"Linker: LLD 14.0.6", 0, false},
		{"GCC: (unclosed 12", 0, false},
		{"GCC: (x) y", 0, false},
	} {
		got, ok := gccMajor([]byte(c.s))
		if got != c.want || ok != c.ok {
			t.Errorf("gccMajor(%q) = %d, %v; want %d, %v", c.s, got, ok, c.want, c.ok)
		}
	}
}

// openELF opens path for the test's duration.
func openELF(t *testing.T, path string) *elfx.File {
	t.Helper()
	f, err := elfx.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
