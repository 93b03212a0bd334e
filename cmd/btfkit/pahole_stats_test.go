package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// statsFixture: two units that define struct padded alike and functions
// taking pointers to it (pahole's "methods"), plus types only one unit
// has, an anonymous struct and a union.
var statsFixture = map[string]string{
	"one.c": `struct padded { long a; char b; long c; };
struct nested { struct padded p; int x; };
struct small { char a; };
union mix { int i; float f; long l; };
typedef struct { int q; } anon_t;
int func1(int a, int b) { return a + b; }
int func2(struct padded *p) { return p->a; }
int func3(struct padded *p, const struct nested *n, struct nested *m) { return p->b + n->x + m->x; }
struct padded g_padded; struct nested g_nested; struct small g_small; union mix g_mix; anon_t g_anon;
`,
	"two.c": `struct padded { long a; char b; long c; };
struct other { int z; };
struct padded g2; struct other go;
int f3(struct padded *p, struct other *o) { return p->b + o->z; }
`,
}

// statsObject compiles statsFixture and links both units (ld -r).
func statsObject(t *testing.T) (dir, obj string) {
	t.Helper()
	testc.Require(t, "gcc", "ld")
	dir = t.TempDir()
	var objs []string
	for _, name := range []string{"one.c", "two.c"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(statsFixture[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, p, testc.Variant{CC: testc.GCC, Flags: []string{"-g", "-O0"}}))
	}
	obj = filepath.Join(dir, "both.o")
	if b, err := exec.Command("ld", append([]string{"-r", "-o", obj}, objs...)...).CombinedOutput(); err != nil {
		t.Fatalf("ld: %v\n%s", err, b)
	}
	return dir, obj
}

// TestPaholeStatsOptions: the pahole options that count instead of
// printing layouts, or print something else per -C type, or stop early,
// print what sid's pahole 1.32 prints, with its exit status: -T
// (--nr_definitions, with and without -s, --sort, -a -A, -t; refused with
// -C), -m (--nr_methods, from DWARF units and from BTF; refused with -C),
// -u (--defined_in), --first_obj_only, -q (--quiet) and
// --skip_emitting_atomic_typedefs (with --compile), on a two-unit object,
// on that object's BTF (encoded by pahole) and, for the counts, on the
// three-unit verboseFixture objects.
func TestPaholeStatsOptions(t *testing.T) {
	testc.Require(t, "pahole")
	dir, obj := statsObject(t)
	raw := filepath.Join(dir, "both.btf")
	if _, e, code := runPaholeTool(t, "pahole", "", "--btf_features=default", "--btf_encode_detached="+raw, obj); code != 0 {
		t.Fatalf("pahole -J: %s", e)
	}
	// The verboseFixture objects for what prints no layouts: their
	// two-dimensional array is printed otherwise from DWARF since the
	// encoder writes one ARRAY per dimension (see the layout tests).
	_, more := verboseObjects(t)
	counts := [][]string{{"-T"}, {"-T", "-t:"}, {"-m"}, {"-m", "-T"}, {"-u", "-C", "cc,bb"}, {"--first_obj_only", "-s"}}
	for _, in := range more {
		for _, args := range counts {
			a := append(append([]string{}, args...), in)
			want, _, wcode := runPaholeTool(t, "pahole", "", a...)
			got, _, gcode := runPahole(t, a...)
			if got != want || gcode != wcode {
				t.Errorf("pahole %s %s: exit %d (pahole 1.32's %d), output:\n%s", strings.Join(args, " "), filepath.Base(in), gcode, wcode, lineDiff(want, got))
			}
		}
	}
	for _, in := range []string{obj, raw} {
		for _, args := range [][]string{
			{"-T"}, {"-T", "-s"}, {"-s", "-T"}, {"-T", "-t:"}, {"-T", "--sort"}, {"-T", "-a", "-A"}, {"-T", "-C", "padded"},
			{"-m"}, {"-T", "-m"}, {"-m", "-T"}, {"-m", "-C", "padded"}, {"-m", "--first_obj_only"}, {"-m", "--structs", "-x", "oth"},
			{"-u"}, {"-u", "-C", "padded"}, {"-u", "-C", "other"}, {"-u", "-C", "padded,other"}, {"-u", "-C", "small,padded"},
			{"--first_obj_only"}, {"--first_obj_only", "-C", "other"}, {"--first_obj_only", "-C", "padded,other"}, {"--first_obj_only", "-s"},
			{"-q"}, {"-q", "-C", "padded"}, {"-q", "-E", "-C", "nested"}, {"-q", "--hex", "-r", "-C", "nested"},
			{"--compile", "--skip_emitting_atomic_typedefs"}, {"--skip_emitting_atomic_typedefs", "-C", "padded"},
		} {
			a := append(append([]string{}, args...), in)
			want, _, wcode := runPaholeTool(t, "pahole", "", a...)
			got, _, gcode := runPahole(t, a...)
			name := strings.Join(args, " ") + " " + filepath.Base(in)
			if gcode != wcode {
				t.Errorf("pahole %s: exit %d, pahole 1.32's %d", name, gcode, wcode)
			}
			if got != want {
				t.Errorf("pahole %s: output differs from pahole 1.32's:\n%s", name, lineDiff(want, got))
			}
		}
	}
	// The refusals' messages.
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-T", "-C", "padded", obj}, "pahole: -T/nr_definitions doesn't work with --class_name/-C, it shows all classes and the number of times they are defined\n"},
		{[]string{"-m", "-C", "padded", obj}, "pahole: -m/nr_methods doesn't work with --class_name/-C, it shows all classes and the number of its methods\n"},
	} {
		_, want, _ := runPaholeTool(t, "pahole", "", c.args...)
		_, got, _ := runPahole(t, c.args...)
		if got != want || got != c.msg {
			t.Errorf("pahole %q: stderr %q; pahole 1.32's %q", c.args, got, want)
		}
	}
}

// TestPaholePtrTableStats: --ptr_table_stats prints on stderr, for each
// unit pahole's loader hands over, the sizes of the tables it filled
// (tags, types, functions and their allocations). btfkit counts the
// entries as pahole's DWARF and BTF loaders store them
// (pfunct.DWARFTables, pfunct.BTFTables): the lines are sid's pahole
// 1.32's for C objects (gcc -O0 and -O2, clang), C++ (DW_LANG_C_plus_plus,
// whose members are tags, and C++14, whose are not), BTF, with -X leaving
// units out, -C stopping early and -m, and for a Debian module (the whole
// Debian 6.1 vmlinux, 2,172 units, matched too when this was written).
func TestPaholePtrTableStats(t *testing.T) {
	testc.Require(t, "pahole", "g++", "clang")
	dir, obj := statsObject(t)
	raw := filepath.Join(dir, "both.btf")
	if _, e, code := runPaholeTool(t, "pahole", "", "--btf_features=default", "--btf_encode_detached="+raw, obj); code != 0 {
		t.Fatalf("pahole -J: %s", e)
	}
	vdir, more := verboseObjects(t)
	inputs := append([]string{obj, raw}, more...)
	cc := filepath.Join(dir, "cp.cc")
	if err := os.WriteFile(cc, []byte(`namespace ns { struct A { int x; virtual int f() { return x; } static int s; }; int A::s = 3; }
template <typename T> struct B : ns::A { T t; int g(T v) { return v + t; } };
B<int> gb;
int use() { ns::A a; return a.f() + gb.g(2); }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs,
		testc.Compile(t, cc, testc.Variant{CC: "g++", Flags: []string{"-g"}}),
		testc.Compile(t, cc, testc.Variant{CC: "g++", Flags: []string{"-g", "-std=c++98"}}),
		testc.Compile(t, filepath.Join(vdir, "a.c"), testc.Variant{CC: testc.Clang, Flags: []string{"-g", "-O2"}}))
	if vmlinux, _ := testenv.KernelInputs(t); vmlinux != "" {
		inputs = append(inputs, testenv.Module(t, "virtio_net"))
	}
	for _, in := range inputs {
		for _, args := range [][]string{
			{"--ptr_table_stats", "-s"}, {"--ptr_table_stats", "-C", "padded,cc"}, {"--ptr_table_stats", "-X", "two", "-n"},
			{"--ptr_table_stats", "-m"}, {"--ptr_table_stats", "--first_obj_only", "-N"},
		} {
			a := append(append([]string{}, args...), in)
			_, want, wcode := runPaholeTool(t, "pahole", "", a...)
			_, got, gcode := runPahole(t, a...)
			// Keep the table lines (pahole's libbpf may add others).
			keep := func(s string) string {
				var b strings.Builder
				for _, l := range strings.SplitAfter(s, "\n") {
					if strings.HasPrefix(l, "# cu,") || strings.Count(l, ",") == 6 {
						b.WriteString(l)
					}
				}
				return b.String()
			}
			if keep(got) != keep(want) || gcode != wcode {
				t.Errorf("pahole %s %s: exit %d (pahole 1.32's %d), stderr:\n%s", strings.Join(args, " "), filepath.Base(in), gcode, wcode, lineDiff(keep(want), keep(got)))
			}
		}
	}
}
