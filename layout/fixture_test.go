package layout_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The oracle here is the pahole on PATH, Debian's 1.24, run at test time
// on C compiled by gcc and clang at test time (testdata/agree.c: types on
// which 1.24 and 1.31 print the same). Where 1.31 prints differently, the
// expected text is 1.31's, committed (testdata/differ.c, differ_test.go).
//
// One difference is applied to 1.24's output rather than committed: with
// -C, pahole 1.31 prints an empty line after each type (1.24 does not).

// optionCase is one pahole command line and the layout options meaning
// the same.
type optionCase struct {
	name string
	args []string
	opts layout.Options
}

// agreeNames are the -C names for the fixtures: structs, a union, enums,
// typedefs of an array and a function pointer. (A typedef of an anonymous
// struct is printed differently by 1.31: testdata/differ.c.)
var agreeNames = "big,color,callback_td,odd_union,int_array_td,holes,with_enum,anon_members,small_enum"

var optionCases = []optionCase{
	{"default", nil, layout.Options{}},
	{"hex", []string{"--hex"}, layout.Options{Hex: true}},
	{"cacheline32", []string{"-c", "32"}, layout.Options{CachelineSize: 32}},
	{"C", []string{"-C", agreeNames}, layout.Options{ClassNames: strings.Split(agreeNames, ",")}},
	{"C-hex-cacheline128", []string{"--hex", "-c", "128", "-C", agreeNames},
		layout.Options{Hex: true, CachelineSize: 128, ClassNames: strings.Split(agreeNames, ",")}},
	// A missing name stops the search in that input: pahole prints
	// nothing after it, says so and exits 0.
	{"C-missing", []string{"-C", "holes,no_such_type,big"}, layout.Options{ClassNames: []string{"holes", "no_such_type", "big"}}},
	{"C-skip-missing", []string{"--skip_missing", "-C", "holes,no_such_type,big"},
		layout.Options{SkipMissing: true, ClassNames: []string{"holes", "no_such_type", "big"}}},
}

// pahole runs the pahole on PATH (1.32: testenv puts sid's first) with
// the case's arguments and args; want is its standard output, and the
// type it reports not found.
func pahole(t *testing.T, c optionCase, args ...string) (want, missing string) {
	t.Helper()
	cmd := exec.Command("pahole", append(append([]string{}, c.args...), args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pahole %s: %v\n%s", strings.Join(cmd.Args[1:], " "), err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if n, ok := strings.CutPrefix(line, "pahole: type '"); ok {
			missing = strings.TrimSuffix(n, "' not found")
		}
	}
	return stdout.String(), missing
}

func fixtureObjects(t *testing.T, name string) map[string]string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]string{}
	for _, v := range testc.DWARFVariants() {
		objs[v.Name()] = testc.Compile(t, src, v)
	}
	return objs
}

// TestFixturesDWARF: `pahole [OPTIONS] OBJ` on DWARF from gcc and clang
// (DWARF 4 and 5, -O0 and -O2).
func TestFixturesDWARF(t *testing.T) {
	testc.Require(t, "pahole")
	for variant, obj := range fixtureObjects(t, "agree.c") {
		for _, c := range optionCases {
			t.Run(variant+"/"+c.name, func(t *testing.T) {
				want, wantMissing := pahole(t, c, obj)
				got, missing := listDWARF(t, obj, c.opts)
				if got != want {
					t.Errorf("pahole %s %s: %s", strings.Join(c.args, " "), obj, diffTypes(got, want))
				}
				if missing != wantMissing {
					t.Errorf("type not found: %q, want %q", missing, wantMissing)
				}
			})
		}
	}
}

// TestFixturesBTF: `pahole -F btf [OPTIONS] OBJ` on the BTF pahole -J
// made of the same objects.
func TestFixturesBTF(t *testing.T) {
	testc.Require(t, "pahole")
	for variant, obj := range fixtureObjects(t, "agree.c") {
		cp := filepath.Join(t.TempDir(), filepath.Base(obj))
		b, err := os.ReadFile(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		testc.Run(t, "pahole", "-J", cp)
		s, err := btf.LoadFile(cp, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range optionCases {
			t.Run(variant+"/"+c.name, func(t *testing.T) {
				want, wantMissing := pahole(t, c, "-F", "btf", cp)
				got, missing := listBTF(t, s, c.opts)
				if got != want {
					t.Errorf("pahole -F btf %s %s: %s", strings.Join(c.args, " "), cp, diffTypes(got, want))
				}
				if missing != wantMissing {
					t.Errorf("type not found: %q, want %q", missing, wantMissing)
				}
			})
		}
	}
}

// vmlinuxNames are Debian 6.1 kernel types on which pahole 1.24 and 1.31
// agree (no member of a type with holes or padding): bitfields, a packed
// struct, anonymous unions, function pointers, cache line boundaries.
var vmlinuxNames = "list_head,callback_head,qspinlock,ratelimit_state,desc_struct,orc_entry,static_call_key,pt_regs,file_system_type,kernel_symbol"

// TestVmlinuxOptions: --hex and -c with -C on the Debian vmlinux, from its
// DWARF and from its .BTF, against pahole at test time.
func TestVmlinuxOptions(t *testing.T) {
	testc.Require(t, "pahole")
	vmlinux, _ := testenv.KernelInputs(t)
	names := strings.Split(vmlinuxNames, ",")
	embedded, s := embeddedBTF(t)
	for _, c := range []optionCase{
		{"C", []string{"-C", vmlinuxNames}, layout.Options{ClassNames: names}},
		{"hex", []string{"--hex", "-C", vmlinuxNames}, layout.Options{Hex: true, ClassNames: names}},
		{"cacheline32", []string{"-c", "32", "-C", vmlinuxNames}, layout.Options{CachelineSize: 32, ClassNames: names}},
		{"hex-cacheline128", []string{"--hex", "-c", "128", "-C", vmlinuxNames}, layout.Options{Hex: true, CachelineSize: 128, ClassNames: names}},
	} {
		t.Run("dwarf/"+c.name, func(t *testing.T) {
			want, _ := pahole(t, c, vmlinux)
			if got, _ := listDWARF(t, vmlinux, c.opts); got != want {
				t.Errorf("pahole %s vmlinux: %s", strings.Join(c.args, " "), diffTypes(got, want))
			}
		})
		t.Run("btf/"+c.name, func(t *testing.T) {
			want, _ := pahole(t, c, "-F", "btf", embedded)
			if got, _ := listBTF(t, s, c.opts); got != want {
				t.Errorf("pahole -F btf %s embedded.btf: %s", strings.Join(c.args, " "), diffTypes(got, want))
			}
		})
	}
}

// TestFixturesUnits: an object of two compile units (ld -r). A type is
// printed once per distinct layout, in unit order, whatever the number of
// units converted at a time.
func TestFixturesUnits(t *testing.T) {
	testc.Require(t, "pahole", "ld")
	var objs []string
	for _, f := range []string{"units1.c", "units2.c"} {
		src, err := filepath.Abs(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}))
	}
	linked := filepath.Join(t.TempDir(), "units.o")
	testc.Run(t, "ld", append([]string{"-r", "-o", linked}, objs...)...)
	want, _ := pahole(t, optionCase{}, linked)
	if strings.Count(want, "struct variant {") != 2 || strings.Count(want, "struct shared {") != 1 {
		t.Fatalf("pahole on PATH printed an unexpected listing:\n%s", want)
	}
	for _, jobs := range []int{1, 2, 4} {
		if got, _ := listDWARFJobs(t, linked, layout.Options{}, jobs); got != want {
			t.Errorf("-j%d: %s", jobs, diffTypes(got, want))
		}
	}
}
