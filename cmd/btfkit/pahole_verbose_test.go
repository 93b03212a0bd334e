package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// verboseFixture: three units, linked (ld -r) in two orders: a.c with
// most kinds (bitfields after plain members, a signed enum, an ENUM64,
// floats, qualifiers, a function pointer typedef with unnamed parameters,
// a variadic function, a static function without a symbol), b.c with
// arrays but no "int" (pahole's encoder gives them the int of an earlier
// unit; btfkit's unit adds its own), c.c with an array and no "int"
// either; b.c and c.c define static functions of one name with other
// prototypes (a parameter count, a parameter's type: pahole logs the
// first difference).
var verboseFixture = map[string]string{
	"a.c": `#include <stdarg.h>
struct bits { int x; char c; unsigned int a:3, b:5; long l; };
enum sgn { NEG = -100, POS = 100 };
enum big { B1 = 1, B2 = 0x100000000ULL };
typedef int (*cb_t)(void *, int);
struct s { const volatile int cv; float f; double d; cb_t cb; int arr[4]; enum sgn e; enum big g; struct bits b; };
struct s gs = { .cv = 1 };
static int hidden;
int va(const char *fmt, ...) { va_list ap; va_start(ap, fmt); int r = va_arg(ap, int); va_end(ap); return r + hidden; }
int use(struct s *p, cb_t cb) { return cb(p, p->arr[1]); }
static int st(int x) { return x * 2; }
int call(int x) { return st(x); }
`,
	"b.c": `struct bb { char c[3]; short s; unsigned char u[2][5]; };
struct bb gb;
char buf2[16];
void touch(struct bb *p) { p->c[0] = buf2[1]; }
__attribute__((noinline, used)) static int twice(char *a) { return a[0]; }
__attribute__((noinline, used)) static int other(char *a, char *b) { return a[0] + b[0]; }
int call_b(void) { return twice(buf2) + other(buf2, buf2); }
`,
	"c.c": `struct cc { long v[2]; };
struct cc gc;
int first_c(void) { return 1; }
__attribute__((noinline, used)) static int twice(long a, int b) { return a + b; }
__attribute__((noinline, used)) static int other(char *b, int a) { return b[0] + a; }
int call_c(void) { return twice(gc.v[0], 1) + other((char *)&gc, 2); }
`,
}

// verboseObjects compiles the fixture and links it in both orders.
func verboseObjects(t *testing.T) (dir string, objs []string) {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir = t.TempDir()
	o := map[string]string{}
	for name, src := range verboseFixture {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		flags := []string{"-g", "-O2"}
		if name == "c.c" {
			flags = []string{"-g"}
		}
		o[name] = testc.Compile(t, p, testc.Variant{CC: testc.GCC, Flags: flags})
	}
	for _, order := range [][]string{{"a.c", "b.c", "c.c"}, {"c.c", "b.c", "a.c"}} {
		out := filepath.Join(dir, strings.Join(order, "")+".o")
		args := []string{"-r", "-o", out}
		for _, n := range order {
			args = append(args, o[n])
		}
		if b, err := exec.Command("ld", args...).CombinedOutput(); err != nil {
			t.Fatalf("ld %q: %v\n%s", args, err, b)
		}
		objs = append(objs, out)
	}
	return dir, objs
}

// TestPaholeVerboseLog: pahole -J --verbose prints its encoder's log
// (every type as added, unit by unit before deduplication, the units'
// variable searches and variables, the functions, the DATASECs) and, on
// stderr, the --btf_features names it ignores; btfkit prints the same as
// sid's pahole 1.32, line for line, for feature lists that encode
// variables or not, merge units or not ("+all" does not), in place and
// detached, and split against a base (the IDs then follow the base's).
func TestPaholeVerboseLog(t *testing.T) {
	testc.Require(t, "pahole")
	dir, objs := verboseObjects(t)
	base := filepath.Join(dir, "base.btf")
	if _, e, code := runPahole(t, "--btf_features=default", "--btf_encode_detached="+base, objs[1]); code != 0 {
		t.Fatalf("base: %s", e)
	}
	for _, obj := range objs {
		for _, args := range [][]string{
			{"-J", "--btf_features=default,global_var"},
			{"-J", "--btf_features=default"},
			{"-J", "--btf_features=+all"},
			{"-J", "--btf_features=var,bogus,,float"},
			{"-J"},
			{"--btf_features=default,global_var", "--btf_encode_detached=" + filepath.Join(dir, "out.btf")},
			{"--btf_features=default", "--btf_base", base, "--btf_encode_detached=" + filepath.Join(dir, "split.btf")},
		} {
			name := strings.Join(args, " ") + " " + filepath.Base(obj)
			// Each run gets a copy at the same path: the log names it.
			in := filepath.Join(dir, "in.o")
			copyFile(t, obj, in)
			a := append(append([]string{"-V"}, args...), in)
			want, wantErr, wcode := runPaholeTool(t, "pahole", "", a...)
			copyFile(t, obj, in)
			got, gotErr, gcode := runPahole(t, a...)
			if wcode != 0 || gcode != 0 {
				t.Errorf("%s: pahole exit %d (%s), btfkit exit %d (%s)", name, wcode, wantErr, gcode, gotErr)
				continue
			}
			if got != want {
				t.Errorf("%s: stdout differs from pahole 1.32's:\n%s", name, lineDiff(want, got))
			}
			if gotErr != wantErr {
				t.Errorf("%s: stderr %q; pahole 1.32's %q", name, gotErr, wantErr)
			}
		}
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return "(same lines)"
}

// TestPaholeInvalidVarName: a variable whose name BTF cannot hold
// ("0badvar", patched into the DWARF and symbol names) stops pahole's
// encoding, with its messages, unless --btf_encode_force leaves the
// variable out, silently or, with --verbose, with a warning. btfkit prints
// what sid's pahole 1.32 prints; the one difference is the exit status of
// the refused encoding: pahole 1.32 exits 0 having written nothing,
// btfkit 1. With encode_force the .BTF written is pahole's, byte for
// byte.
func TestPaholeInvalidVarName(t *testing.T) {
	testc.Require(t, "pahole")
	dir := t.TempDir()
	src := filepath.Join(dir, "inv.c")
	if err := os.WriteFile(src, []byte("int normal_var = 42;\nstruct simple { int x; };\nstruct simple g;\nint xbadvar = 99;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	patched := filepath.Join(dir, "patched.o")
	if err := os.WriteFile(patched, bytes.ReplaceAll(b, []byte("xbadvar"), []byte("0badvar")), 0o644); err != nil {
		t.Fatal(err)
	}
	btfOf := func(path string) []byte {
		t.Helper()
		f, err := elf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := f.Section(".BTF")
		if s == nil {
			return nil
		}
		d, err := s.Data()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	in := filepath.Join(dir, "in.o")
	for _, c := range []struct {
		args      []string
		sidStatus int // pahole 1.32's exit status (btfkit: 1 when nothing is written)
		written   bool
	}{
		{[]string{"-J", "--btf_features=global_var"}, 0, false},
		{[]string{"-J", "--btf_features=global_var", "--btf_encode_force"}, 0, true},
		{[]string{"-J", "--btf_features=global_var", "--btf_encode_force", "--verbose"}, 0, true},
		{[]string{"-J", "-j", "--btf_features=global_var", "--btf_encode_force"}, 0, true},
	} {
		name := strings.Join(c.args, " ")
		a := append(append([]string{}, c.args...), in)
		copyFile(t, patched, in)
		wantOut, wantErr, wcode := runPaholeTool(t, "pahole", "", a...)
		wantBTF := btfOf(in)
		copyFile(t, patched, in)
		gotOut, gotErr, gcode := runPahole(t, a...)
		gotBTF := btfOf(in)
		if wcode != c.sidStatus {
			t.Errorf("%s: pahole 1.32 exits %d; the test expects %d", name, wcode, c.sidStatus)
		}
		wantCode := 0
		if !c.written {
			wantCode = 1
		}
		if gcode != wantCode {
			t.Errorf("%s: btfkit exits %d, want %d", name, gcode, wantCode)
		}
		if gotErr != wantErr {
			t.Errorf("%s: stderr %q; pahole 1.32's %q", name, gotErr, wantErr)
		}
		if strings.Contains(name, "verbose") {
			// The log names the file: the same path for both.
			if gotOut != wantOut {
				t.Errorf("%s: stdout differs from pahole 1.32's:\n%s", name, lineDiff(wantOut, gotOut))
			}
		}
		if (wantBTF != nil) != c.written || !bytes.Equal(gotBTF, wantBTF) {
			t.Errorf("%s: .BTF written by btfkit (%d bytes) is not pahole 1.32's (%d bytes)", name, len(gotBTF), len(wantBTF))
		}
		if c.written {
			s, err := btf.Parse(gotBTF, nil)
			if err != nil {
				t.Fatal(err)
			}
			for id := s.FirstID(); id < s.NextID(); id++ {
				if ty := s.Type(id); ty.Kind() == btf.KindVar && ty.Name() == "0badvar" {
					t.Errorf("%s: the invalid variable was encoded", name)
				}
			}
		}
	}
}
