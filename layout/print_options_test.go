package layout_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The options that change how a layout is printed (print_options.go and
// the files it names), against the pahole on PATH (1.32) at test time:
// -E, -p, -r, -M, -I, -l, -w, --suppress_aligned_attribute,
// --suppress_force_paddings, --suppress_packed, --fixup_silly_bitfields,
// --classes_as_structs, --flat_arrays and --compile, alone and together,
// on testdata/agree.c, testdata/print.c (whose structs embed structs with
// holes), testdata/classes.cc (C++) and Debian 6.1 kernel types.

// printCase is a pahole command line and the options meaning the same.
type printCase struct {
	name string
	args []string
}

// printOpts maps the pahole options these tests use onto layout.Options.
func printOpts(t *testing.T, args []string) layout.Options {
	t.Helper()
	o := layout.Options{CachelineSize: 64}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-E":
			o.ExpandTypes = true
		case "-p":
			o.ExpandPointers = true
		case "-r":
			o.RelOffset = true
		case "-M":
			o.ShowOnlyDataMembers = true
		case "-I":
			o.ShowDeclInfo = true
		case "-l":
			o.ShowFirstBiggestSizeBaseTypeMember = true
		case "--suppress_aligned_attribute":
			o.SuppressAlignedAttribute = true
		case "--suppress_force_paddings":
			o.SuppressForcePaddings = true
		case "--suppress_packed":
			o.SuppressPacked = true
		case "--fixup_silly_bitfields":
			o.FixupSillyBitfields = true
		case "--classes_as_structs":
			o.ClassesAsStructs = true
		case "--flat_arrays":
			o.FlatArrays = true
		case "--compile":
			o.Compile = true
		case "--hex":
			o.Hex = true
		case "--skip_missing":
			o.SkipMissing = true
		case "--skip_emitting_atomic_typedefs":
			o.SkipEmittingAtomicTypedefs = true
		case "-R":
			o.Reorganize = true
		case "-P":
			o.Packable = true
		case "-s":
			o.Sizes = true
		case "-w", "-C":
			if i+1 == len(args) {
				t.Fatalf("%s needs an argument", a)
			}
			i++
			if a == "-C" {
				o.ClassNames = strings.Split(args[i], ",")
			} else {
				o.WordSize, _ = strconv.Atoi(args[i])
			}
		default:
			t.Fatalf("printOpts: unknown option %q", a)
		}
	}
	return o
}

// printCases are the command lines run on the fixtures.
var printCases = []printCase{
	{"p", []string{"-p"}},
	{"r", []string{"-r"}},
	{"M", []string{"-M"}},
	{"I", []string{"-I"}},
	{"l", []string{"-l"}},
	{"suppress_aligned_attribute", []string{"--suppress_aligned_attribute"}},
	{"suppress_force_paddings", []string{"--suppress_force_paddings"}},
	{"suppress_packed", []string{"--suppress_packed"}},
	{"fixup_silly_bitfields", []string{"--fixup_silly_bitfields"}},
	{"classes_as_structs", []string{"--classes_as_structs"}},
	{"flat_arrays", []string{"--flat_arrays"}},
	{"hex-r-l", []string{"--hex", "-r", "-l"}},
	{"E", []string{"-E"}},
	{"E-p", []string{"-E", "-p"}},
	{"w4", []string{"-w", "4"}},
	{"w2", []string{"-w", "2"}},
	{"w16", []string{"-w", "16"}},
	{"fixup-suppress_force_paddings", []string{"--fixup_silly_bitfields", "--suppress_force_paddings"}},
	{"compile", []string{"--compile"}},
	{"compile-C", []string{"--compile", "-C", "uses_all,node,walk_t,with_types,matrix,tag_t,value"}},
	{"E-C", []string{"-E", "-C", "node,walk_t,uses_all,label_t"}},
	{"p-r-C", []string{"-p", "-r", "-C", "node,nested,uses_all"}},
	{"hex-E-l-C", []string{"--hex", "-E", "-l", "-C", "wide,nested"}},
	{"E-p-M-suppress-C", []string{"-E", "-p", "-M", "--suppress_packed", "--suppress_aligned_attribute", "-C", "aligned_and_packed,with_types"}},
}

// btfObject is a copy of obj with the BTF pahole -J (the pahole on PATH)
// made of its DWARF, and that BTF.
func btfObject(t *testing.T, obj string) (string, *btf.Spec) {
	t.Helper()
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
	return cp, s
}

// checkAgainstPahole compares the library's listing of obj (DWARF) and
// of its BTF with the pahole on PATH for each case; extra is added to
// every command line.
func checkAgainstPahole(t *testing.T, obj string, cases []printCase, extra ...string) {
	t.Helper()
	cp, s := btfObject(t, obj)
	for _, c := range cases {
		args := append(append([]string{}, c.args...), extra...)
		o := printOpts(t, args)
		oc := optionCase{c.name, args, o}
		t.Run(c.name+"/dwarf", func(t *testing.T) {
			want, wantMissing := pahole(t, oc, obj)
			got, missing := listDWARF(t, obj, o)
			if got != want || missing != wantMissing {
				t.Errorf("pahole %s %s: missing %q (want %q); %s", strings.Join(args, " "), obj, missing, wantMissing, diffTypes(got, want))
			}
		})
		t.Run(c.name+"/btf", func(t *testing.T) {
			want, wantMissing := pahole(t, oc, "-F", "btf", cp)
			got, missing := listBTFFile(t, s, cp, o)
			if got != want || missing != wantMissing {
				t.Errorf("pahole -F btf %s %s: missing %q (want %q); %s", strings.Join(args, " "), cp, missing, wantMissing, diffTypes(got, want))
			}
		})
	}
}

// TestPrintOptions: every case on testdata/agree.c and testdata/print.c,
// from gcc and clang, DWARF 4 and 5, -O0 and -O2, and the BTF pahole -J
// makes of each.
func TestPrintOptions(t *testing.T) {
	testc.Require(t, "pahole")
	agree := fixtureObjects(t, "agree.c")
	print := fixtureObjects(t, "print.c")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name()+"/agree.c", func(t *testing.T) {
			checkAgainstPahole(t, agree[v.Name()], printCases)
		})
		t.Run(v.Name()+"/print.c", func(t *testing.T) {
			checkAgainstPahole(t, print[v.Name()], printCases)
		})
	}
}

// TestPrintOptionsClasses: a C++ class prints "class", and "struct" with
// --classes_as_structs, and --compile emits C++ types as pahole does; compiled by g++ and clang++ as C++14 and C++98
// (whose DW_LANG_C_plus_plus makes pahole call every struct a class
// where it names a type).
func TestPrintOptionsClasses(t *testing.T) {
	testc.Require(t, "pahole")
	src, err := filepath.Abs(filepath.Join("testdata", "classes.cc"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []printCase{
		{"default", nil},
		{"classes_as_structs", []string{"--classes_as_structs"}},
		{"C", []string{"-C", "Uses,PtT,Pt,Node"}},
		{"C-classes_as_structs", []string{"--classes_as_structs", "-C", "Uses,PtT,Pt,Node"}},
		// A class a member has is not emitted before it (pahole's
		// tag__emit_definitions has no case for DW_TAG_class_type).
		{"compile", []string{"--compile"}},
	}
	for _, cc := range []testc.Compiler{"g++", "clang++"} {
		for _, std := range []string{"-std=c++14", "-std=c++98"} {
			v := testc.Variant{CC: cc, Flags: []string{"-g", "-O2", std}}
			t.Run(v.Name(), func(t *testing.T) {
				checkAgainstPahole(t, testc.Compile(t, src, v), cases)
			})
		}
	}
}

// TestPrintOptionsVmlinux: the options with -C on Debian 6.1 kernel
// types, from the vmlinux's DWARF and its .BTF.
func TestPrintOptionsVmlinux(t *testing.T) {
	testc.Require(t, "pahole")
	vmlinux, _ := testenv.KernelInputs(t)
	embedded, s := embeddedBTF(t)
	for _, c := range printCases {
		if strings.Contains(c.name, "-C") {
			continue
		}
		args := append(append([]string{}, c.args...), "-C", vmlinuxNames)
		o := printOpts(t, args)
		oc := optionCase{c.name, args, o}
		t.Run("dwarf/"+c.name, func(t *testing.T) {
			want, _ := pahole(t, oc, vmlinux)
			if got, _ := listDWARF(t, vmlinux, o); got != want {
				t.Errorf("pahole %s vmlinux: %s", strings.Join(args, " "), diffTypes(got, want))
			}
		})
		t.Run("btf/"+c.name, func(t *testing.T) {
			want, _ := pahole(t, oc, "-F", "btf", embedded)
			if got, _ := listBTFFile(t, s, embedded, o); got != want {
				t.Errorf("pahole -F btf %s embedded.btf: %s", strings.Join(args, " "), diffTypes(got, want))
			}
		})
	}
}

// countingWriter records the writes made to it.
type countingWriter struct {
	strings.Builder
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Builder.Write(p)
}

// TestPrintStreams: a type whose text is larger than the printer's
// buffer is written out while it is printed (flush.go), not held whole,
// and comes out the same: a struct of 6,000 members, with holes between
// them, made at test time.
func TestPrintStreams(t *testing.T) {
	testc.Require(t, "pahole")
	var src strings.Builder
	src.WriteString("struct huge {\n")
	for i := range 6000 {
		fmt.Fprintf(&src, "\tchar c%d;\n\tlong l%d;\n", i, i)
	}
	src.WriteString("} v_huge;\n")
	path := filepath.Join(t.TempDir(), "huge.c")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, path, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	args := []string{"-C", "huge"}
	o := printOpts(t, args)
	want, _ := pahole(t, optionCase{"huge", args, o}, obj)
	l := layout.NewListing(o)
	var w countingWriter
	err := encode.EachUnit(obj, encode.Options{Features: encode.DefaultFeatures}, func(u encode.Unit) error {
		_, err := l.Unit(&w, u.Spec, u.Facts)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := w.String(); got != want {
		t.Errorf("pahole %s: %s", strings.Join(args, " "), diffTypes(got, want))
	}
	if len(want) < 256<<10 || w.writes < 2 {
		t.Errorf("%d bytes in %d writes: want one type of more than 256 KiB written in pieces", len(want), w.writes)
	}
}
