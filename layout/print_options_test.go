package layout_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/internal/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The options that change how a layout is printed (print_options.go and
// the files it names), against pahole:
//
//   - where Debian's pahole 1.24 prints what pahole 1.31 prints, the pahole
//     on PATH at test time: -p, -r, -M, -I, -l, --suppress_aligned_attribute,
//     --suppress_force_paddings, --suppress_packed, --fixup_silly_bitfields,
//     --classes_as_structs and --flat_arrays, on testdata/agree.c (every
//     type), testdata/print.c (the types both print alike),
//     testdata/classes.cc (C++) and the Debian vmlinux;
//   - where they differ, pahole 1.31's output committed by
//     scripts/layout-testdata: -E (1.31 prints named enums in place), -w
//     (1.24 overflows its 16-bit offsets), --compile (1.31 emits more and
//     in another order), and every option on all of testdata/print.c,
//     whose structs embed structs with holes (1.25's "XXX last struct
//     has" notes).

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

// printAgreeCases are the options pahole 1.24 prints as 1.31 does.
var printAgreeCases = []printCase{
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
}

// printAgreeNames are the types of testdata/print.c that pahole 1.24
// prints as 1.31 does (for -p without uses_all, whose const pointer 1.24
// expands differently).
const printAgreeNames = "node,small_members,chars,wide,silly_bits,matrix,force_pad,aligned_and_packed,with_types,uses_all"

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

// TestPrintOptionsAgree: the options on testdata/agree.c (every type)
// and on the types of testdata/print.c 1.24 prints as 1.31, from gcc and
// clang, DWARF 4 and 5, -O0 and -O2, against the pahole on PATH.
func TestPrintOptionsAgree(t *testing.T) {
	testc.Require(t, "pahole")
	agree := fixtureObjects(t, "agree.c")
	print := fixtureObjects(t, "print.c")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name()+"/agree.c", func(t *testing.T) {
			checkAgainstPahole(t, agree[v.Name()], printAgreeCases)
		})
		t.Run(v.Name()+"/print.c", func(t *testing.T) {
			var cases []printCase
			for _, c := range printAgreeCases {
				if c.name != "p" {
					cases = append(cases, c)
				}
			}
			checkAgainstPahole(t, print[v.Name()], cases, "-C", printAgreeNames)
			names := strings.TrimSuffix(printAgreeNames, ",uses_all")
			checkAgainstPahole(t, print[v.Name()], []printCase{{"p", []string{"-p"}}}, "-C", names)
		})
	}
}

// TestPrintOptionsClasses: a C++ class prints "class", and "struct" with
// --classes_as_structs; compiled by g++ and clang++ as C++14 and C++98
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

// print131Variants are the compilations of testdata/print.c whose pahole
// 1.31 outputs are committed (testdata/print-VARIANT-{dwarf,btf}.txt).
var print131Variants = []testc.Variant{
	{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
	{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2"}},
}

// print131Sections are the pahole command lines whose output on print.c
// each of those files holds, as sections "=== pahole ARGS".
var print131Sections = []string{
	"", "-E", "-p", "-E -p", "-r", "-M", "-l", "-w 4", "-w 2", "-w 16",
	"--suppress_aligned_attribute", "--suppress_force_paddings", "--suppress_packed",
	"--fixup_silly_bitfields --suppress_force_paddings", "--flat_arrays", "--compile",
	"--compile -C uses_all,node,walk_t,with_types,matrix,tag_t,value",
	"-E -C node,walk_t,uses_all,label_t", "-p -r -C node,nested,uses_all",
	"--hex -E -l -C wide,nested", "-E -p -M --suppress_packed --suppress_aligned_attribute -C aligned_and_packed,with_types",
}

// sections splits a file of "=== pahole ARGS" sections.
func sections(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var key string
	var cur strings.Builder
	have := false
	for _, line := range strings.SplitAfter(readFile(t, path), "\n") {
		if args, ok := strings.CutPrefix(line, "=== pahole"); ok {
			if have {
				out[key] = cur.String()
			}
			key, have = strings.TrimSpace(args), true
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	if have {
		out[key] = cur.String()
	}
	return out
}

// TestPrintOptions131: every option on all of testdata/print.c, from
// DWARF and BTF, against pahole 1.31's committed output.
func TestPrintOptions131(t *testing.T) {
	testc.Require(t, "pahole")
	src, err := filepath.Abs(filepath.Join("testdata", "print.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range print131Variants {
		obj := testc.Compile(t, src, v)
		cp, s := btfObject(t, obj)
		for _, format := range []string{"dwarf", "btf"} {
			file := filepath.Join("testdata", "print-"+v.Name()+"-"+format+".txt")
			want := sections(t, file)
			for _, args := range print131Sections {
				w, ok := want[args]
				if !ok {
					t.Errorf("%s has no section %q: run scripts/layout-testdata", file, args)
					continue
				}
				o := printOpts(t, strings.Fields(args))
				var got string
				if format == "dwarf" {
					got, _ = listDWARF(t, obj, o)
				} else {
					got, _ = listBTFFile(t, s, cp, o)
				}
				if got != w {
					t.Errorf("%s %s: pahole %s: %s", v.Name(), format, args, diffTypes(got, w))
				}
			}
		}
	}
}

// TestPrintOptionsVmlinux: the options with -C on Debian 6.1 kernel
// types, from the vmlinux's DWARF and its .BTF: against the pahole on PATH
// where it agrees with 1.31, else against pahole 1.31's committed output
// (testdata/vmlinux-print-{dwarf,btf}.txt).
func TestPrintOptionsVmlinux(t *testing.T) {
	testc.Require(t, "pahole")
	vmlinux, _ := testenv.KernelInputs(t)
	embedded, s := embeddedBTF(t)
	for _, c := range printAgreeCases {
		if c.name == "p" {
			continue // 1.24 expands some kernel pointers differently: committed below
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
	for _, format := range []string{"dwarf", "btf"} {
		file := filepath.Join("testdata", "vmlinux-print-"+format+".txt")
		for _, opt := range []string{"-E", "-p", "--compile", "-E -p -r"} {
			args := opt + " -C " + vmlinuxNames
			w, ok := sections(t, file)[args]
			if !ok {
				t.Errorf("%s has no section %q: run scripts/layout-testdata", file, args)
				continue
			}
			o := printOpts(t, strings.Fields(args))
			var got string
			if format == "dwarf" {
				got, _ = listDWARF(t, vmlinux, o)
			} else {
				got, _ = listBTF(t, s, o)
			}
			if got != w {
				t.Errorf("%s: pahole %s: %s", format, args, diffTypes(got, w))
			}
		}
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
// and comes out the same: --fixup_silly_bitfields turns silly_bits'
// last member into a plain long, whose forced padding pahole prints as
// over 8,000 lines.
func TestPrintStreams(t *testing.T) {
	testc.Require(t, "pahole")
	src, err := filepath.Abs(filepath.Join("testdata", "print.c"))
	if err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	args := []string{"--fixup_silly_bitfields", "-C", "silly_bits"}
	o := printOpts(t, args)
	want, _ := pahole(t, optionCase{"fixup", args, o}, obj)
	l := layout.NewListing(o)
	var w countingWriter
	err = encode.EachUnit(obj, encode.Options{Features: encode.DefaultFeatures}, func(u encode.Unit) error {
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
