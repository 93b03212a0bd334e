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
	"github.com/btfkit/btfkit/layout"
)

// The type filters and the other listings (filter.go, formatters.go,
// find.go, structures.go) on C compiled by gcc and clang at test time:
// testdata/filter.c (one unit), testdata/filterunits[12].c (two units
// linked into one object) and testdata/filterflex.c (flexible arrays),
// each from its DWARF and from the BTF pahole -J makes of it, against the
// pahole on PATH (1.32) at test time.

// filterCase is a pahole command line and the layout options meaning the
// same.
type filterCase struct {
	name string
	args []string
	opts layout.Options
}

func prefix(s string) *string { return &s }

func list(s string) []string { return strings.Split(s, ",") }

// filterCases are run on testdata/filter.c.
var filterCases = []filterCase{
	{"default", nil, layout.Options{}},
	{"sizes", []string{"-s"}, layout.Options{Sizes: true}},
	{"nr_members", []string{"-n"}, layout.Options{NrMembers: true}},
	{"class_name_len", []string{"-N"}, layout.Options{ClassNameLen: true}},
	{"separator", []string{"-t", ",", "-s"}, layout.Options{Sizes: true, Separator: ","}},
	{"separator-long", []string{"-t", ":;", "-n"}, layout.Options{NrMembers: true, Separator: ":;"}},
	{"separator-nul", []string{"-t", "", "-s"}, layout.Options{Sizes: true, Separator: "\x00"}},
	{"holes2", []string{"-H", "2"}, layout.Options{NrHoles: 2}},
	{"holes3-sizes", []string{"-H", "3", "-s"}, layout.Options{NrHoles: 3, Sizes: true}},
	{"holes-negative", []string{"-H", "-1"}, layout.Options{NrHoles: -1}},
	{"bit_holes", []string{"-B", "1"}, layout.Options{NrBitHoles: 1}},
	{"bit_holes2-n", []string{"-B", "2", "-n"}, layout.Options{NrBitHoles: 2, NrMembers: true}},
	{"hole_size_ge4", []string{"-z", "4"}, layout.Options{HoleSizeGE: 4, NamesOnly: true}},
	{"hole_size_ge7", []string{"-z", "7"}, layout.Options{HoleSizeGE: 7, NamesOnly: true}},
	{"hole_size_ge0", []string{"-z", "0"}, layout.Options{NamesOnly: true}},
	{"z-then-s", []string{"-z", "4", "-s"}, layout.Options{HoleSizeGE: 4, Sizes: true}},
	{"packed", []string{"--packed"}, layout.Options{JustStructs: true, JustPacked: true}},
	{"packed-sizes", []string{"--packed", "-s"}, layout.Options{JustStructs: true, JustPacked: true, Sizes: true}},
	{"structs", []string{"--structs"}, layout.Options{JustStructs: true}},
	{"unions", []string{"--unions"}, layout.Options{JustUnions: true}},
	// pahole 1.32 applies the struct-only filters to unions too: none
	// has holes, bit holes or padding, none is packable (1.31 crashed
	// on --unions --packable).
	{"unions-holes", []string{"--unions", "-H", "1"}, layout.Options{JustUnions: true, NrHoles: 1}},
	{"unions-holes0", []string{"--unions", "-H", "0"}, layout.Options{JustUnions: true}},
	{"unions-bit_holes", []string{"--unions", "-B", "1", "-s"}, layout.Options{JustUnions: true, NrBitHoles: 1, Sizes: true}},
	{"unions-hole_size_ge", []string{"--unions", "-z", "1"}, layout.Options{JustUnions: true, HoleSizeGE: 1, NamesOnly: true}},
	{"unions-padding_ge", []string{"--unions", "--padding_ge=1"}, layout.Options{JustUnions: true, PaddingGE: 1}},
	{"unions-packable", []string{"--unions", "--packable"}, layout.Options{JustUnions: true, Packable: true}},
	{"unions-flexible", []string{"--unions", "--with_flexible_array"}, layout.Options{JustUnions: true, WithFlexibleArray: true}},
	{"structs-unions", []string{"--structs", "--unions"}, layout.Options{JustStructs: true, JustUnions: true}},
	{"anon", []string{"-a"}, layout.Options{AnonInclude: true}},
	{"nested_anon", []string{"-A"}, layout.Options{NestedAnonInclude: true}},
	{"anon-nested_anon", []string{"-a", "-A"}, layout.Options{AnonInclude: true, NestedAnonInclude: true}},
	{"anon-sizes", []string{"-a", "-s"}, layout.Options{AnonInclude: true, Sizes: true}},
	{"anon-unions", []string{"-a", "-A", "--unions"}, layout.Options{AnonInclude: true, NestedAnonInclude: true, JustUnions: true}},
	{"exclude", []string{"-x", "flt_c"}, layout.Options{ExcludePrefix: prefix("flt_c")}},
	{"anon-exclude", []string{"-a", "-x", "flt_anon_td"}, layout.Options{AnonInclude: true, ExcludePrefix: prefix("flt_anon_td")}},
	{"exclude-empty", []string{"-a", "-A", "-x", ""}, layout.Options{AnonInclude: true, NestedAnonInclude: true, ExcludePrefix: prefix("")}},
	{"prefix_filter", []string{"-y", "flt_h"}, layout.Options{IncludePrefix: prefix("flt_h")}},
	{"anon-prefix_filter", []string{"-a", "-A", "-y", "flt_anon", "-n"},
		layout.Options{AnonInclude: true, NestedAnonInclude: true, IncludePrefix: prefix("flt_anon"), NrMembers: true}},
	{"exclude-prefix_filter", []string{"-y", "flt_", "-x", "flt_c", "-s"},
		layout.Options{IncludePrefix: prefix("flt_"), ExcludePrefix: prefix("flt_c"), Sizes: true}},
	{"with_flexible_array", []string{"--with_flexible_array"}, layout.Options{WithFlexibleArray: true}},
	{"contains", []string{"-i", "flt_target"}, layout.Options{FindContainers: true, ClassNames: list("flt_target")}},
	{"contains-recursive", []string{"-i", "flt_target", "-d"},
		layout.Options{FindContainers: true, Recursive: true, ClassNames: list("flt_target")}},
	{"contains-two", []string{"-d", "-i", "flt_target,flt_c1"},
		layout.Options{FindContainers: true, Recursive: true, ClassNames: list("flt_target,flt_c1")}},
	{"contains-unions", []string{"--unions", "-i", "flt_h1"}, layout.Options{JustUnions: true, FindContainers: true, ClassNames: list("flt_h1")}},
	{"contains-missing", []string{"-i", "no_such_type"}, layout.Options{FindContainers: true, ClassNames: list("no_such_type")}},
	{"find_pointers_to", []string{"-f", "flt_target"}, layout.Options{FindPointers: true, ClassNames: list("flt_target")}},
	{"find_pointers_to-decl", []string{"-f", "flt_fwd_only"}, layout.Options{FindPointers: true, ClassNames: list("flt_fwd_only")}},
	{"find_pointers_to-two", []string{"-f", "flt_c1,flt_target"}, layout.Options{FindPointers: true, ClassNames: list("flt_c1,flt_target")}},
	{"sort", []string{"--sort"}, layout.Options{Sort: true}},
	{"sort-sizes", []string{"-s", "--sort"}, layout.Options{Sizes: true, Sort: true}},
	{"sort-anon", []string{"--sort", "-a", "-A"}, layout.Options{Sort: true, AnonInclude: true, NestedAnonInclude: true}},
	{"sort-C", []string{"--sort", "-C", "flt_h1,no_such_type"}, layout.Options{Sort: true, ClassNames: list("flt_h1,no_such_type")}},
	{"sort-contains", []string{"--sort", "-i", "flt_target"}, layout.Options{Sort: true, FindContainers: true, ClassNames: list("flt_target")}},
	{"nr_definitions", []string{"-T"}, layout.Options{NrDefinitions: true}},
	{"nr_definitions-sizes", []string{"-T", "-s", "-t", ":"}, layout.Options{NrDefinitions: true, Sizes: true, Separator: ":"}},
	{"show_private_classes", []string{"--show_private_classes"}, layout.Options{ShowPrivateClasses: true, ShowOnlyDataMembers: true}},
	{"show_private_classes-sizes", []string{"--show_private_classes", "-s"},
		layout.Options{ShowPrivateClasses: true, ShowOnlyDataMembers: true, Sizes: true}},
	{"padding_ge", []string{"--padding_ge=4"}, layout.Options{PaddingGE: 4}},
	{"padding_ge-sizes", []string{"--padding_ge=1", "-s"}, layout.Options{PaddingGE: 1, Sizes: true}},
	// pahole has no --padding: argp reads it as --padding_ge.
	{"padding", []string{"--padding=4"}, layout.Options{PaddingGE: 4}},
	{"contains_enumerator", []string{"--contains_enumerator=FLT_GREEN"}, layout.Options{ContainsEnumerator: "FLT_GREEN"}},
	{"contains_enumerator-hex", []string{"--hex", "--contains_enumerator=FLT_SQUARE"}, layout.Options{Hex: true, ContainsEnumerator: "FLT_SQUARE"}},
	// A unit without the enumerator is listed as usual.
	{"contains_enumerator-none", []string{"--contains_enumerator=FLT_NONE", "-s"}, layout.Options{ContainsEnumerator: "FLT_NONE", Sizes: true}},
	// With -C pahole prints each type with the formatter and an empty
	// line.
	{"sizes-C", []string{"-s", "-C", "flt_h3,flt_union,flt_b2"}, layout.Options{Sizes: true, ClassNames: list("flt_h3,flt_union,flt_b2")}},
	{"nr_members-C", []string{"-n", "-C", "flt_h3,flt_colors,flt_anon_td"}, layout.Options{NrMembers: true, ClassNames: list("flt_h3,flt_colors,flt_anon_td")}},
	{"class_name_len-C", []string{"-N", "-C", "flt_h1,flt_colors"}, layout.Options{ClassNameLen: true, ClassNames: list("flt_h1,flt_colors")}},
}

// flexCases are run on testdata/filterflex.c.
var flexCases = []filterCase{
	{"with_flexible_array", []string{"--with_flexible_array"}, layout.Options{WithFlexibleArray: true}},
	{"with_embedded_flexible_array", []string{"--with_embedded_flexible_array"}, layout.Options{JustStructs: true, WithEmbeddedFlexibleArray: true}},
	{"with_embedded_flexible_array-sizes", []string{"--with_embedded_flexible_array", "-s"},
		layout.Options{JustStructs: true, WithEmbeddedFlexibleArray: true, Sizes: true}},
	{"flexible-both", []string{"--with_flexible_array", "--with_embedded_flexible_array", "-n"},
		layout.Options{JustStructs: true, WithFlexibleArray: true, WithEmbeddedFlexibleArray: true, NrMembers: true}},
	{"unions", []string{"--unions"}, layout.Options{JustUnions: true}},
	{"unions-with_flexible_array", []string{"--unions", "--with_flexible_array", "-s"}, layout.Options{JustUnions: true, WithFlexibleArray: true, Sizes: true}},
	{"unions-padding_ge", []string{"--unions", "--padding_ge=1"}, layout.Options{JustUnions: true, PaddingGE: 1}},
}

// unitsCases are run on filterunits1.c and filterunits2.c linked into one
// object, from DWARF (two units).
var unitsCases = []filterCase{
	{"default", nil, layout.Options{}},
	{"sizes", []string{"-s"}, layout.Options{Sizes: true}},
	// Only the first unit with the type is searched.
	{"contains", []string{"-i", "fu_shared", "-d"}, layout.Options{FindContainers: true, Recursive: true, ClassNames: list("fu_shared")}},
	{"find_pointers_to", []string{"-f", "fu_variant"}, layout.Options{FindPointers: true, ClassNames: list("fu_variant")}},
	// --sort keeps every unit's types, and two alike make pahole sort
	// again by member types, each distinct type once; with -s nothing is
	// deduplicated.
	{"sort", []string{"--sort"}, layout.Options{Sort: true}},
	{"sort-sizes", []string{"--sort", "-s"}, layout.Options{Sort: true, Sizes: true}},
	{"sort-contains", []string{"--sort", "-i", "fu_shared"}, layout.Options{Sort: true, FindContainers: true, ClassNames: list("fu_shared")}},
	{"sort-C", []string{"--sort", "-C", "fu_zz,no_such_type"}, layout.Options{Sort: true, ClassNames: list("fu_zz,no_such_type")}},
	{"exclude", []string{"-x", "fu_s", "-n"}, layout.Options{ExcludePrefix: prefix("fu_s"), NrMembers: true}},
	// How many units define each type alike; -s after -T lists the
	// sizes too, -T after -s only the counts; with --sort no two are
	// alike.
	{"nr_definitions", []string{"-T"}, layout.Options{NrDefinitions: true}},
	{"nr_definitions-sizes", []string{"-T", "-s"}, layout.Options{NrDefinitions: true, Sizes: true}},
	{"sizes-nr_definitions", []string{"-s", "-T"}, layout.Options{NrDefinitions: true}},
	{"sort-nr_definitions", []string{"--sort", "-T"}, layout.Options{Sort: true, NrDefinitions: true}},
	// Printed once per unit that has the enumerator; the other units'
	// structs are listed.
	{"contains_enumerator", []string{"--contains_enumerator=FU_A"}, layout.Options{ContainsEnumerator: "FU_A"}},
	{"contains_enumerator-second", []string{"--contains_enumerator=FU_C"}, layout.Options{ContainsEnumerator: "FU_C"}},
	{"contains_enumerator-anon", []string{"-a", "-A", "--contains_enumerator=FU_C", "-y", "fu_z"},
		layout.Options{AnonInclude: true, NestedAnonInclude: true, ContainsEnumerator: "FU_C", IncludePrefix: prefix("fu_z")}},
}

// variantsO2 are the -O2 compilations (gcc and clang, DWARF 4 and 5).
func variantsO2() []testc.Variant {
	var vs []testc.Variant
	for _, cc := range []testc.Compiler{testc.GCC, testc.Clang} {
		for _, dw := range []string{"-gdwarf-4", "-gdwarf-5"} {
			vs = append(vs, testc.Variant{CC: cc, Flags: []string{dw, "-O2"}})
		}
	}
	return vs
}

// fixtureSource is the absolute path of a fixture (compilers record it as
// the unit's name and the declarations' file).
func fixtureSource(t *testing.T, name string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// withBTF copies an object and lets pahole -J add its .BTF.
func withBTF(t *testing.T, obj string) string {
	t.Helper()
	cp := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(obj), ".o")+"-btf.o")
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "pahole", "-J", cp)
	return cp
}

// linkUnits compiles filterunits1.c and filterunits2.c and links them.
func linkUnits(t *testing.T, v testc.Variant) string {
	t.Helper()
	testc.Require(t, "ld")
	var objs []string
	for _, f := range []string{"filterunits1.c", "filterunits2.c"} {
		objs = append(objs, testc.Compile(t, fixtureSource(t, f), v))
	}
	linked := filepath.Join(t.TempDir(), "filterunits.o")
	testc.Run(t, "ld", append([]string{"-r", "-o", linked}, objs...)...)
	return linked
}

// listFile is what `pahole [-F btf] OPTIONS path` prints, printed with
// the library as btfkit pahole does: each unit (a DWARF compile unit, or
// the file's BTF) named, then Finish (listDWARF for DWARF).
func listFile(t *testing.T, path string, fromBTF bool, o layout.Options) (out, missing string) {
	t.Helper()
	if fromBTF {
		s, err := btf.LoadFile(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		return listSpec(t, path, s, o)
	}
	return listDWARF(t, path, o)
}

// listSpec is listFile for a BTF file already loaded.
func listSpec(t *testing.T, path string, s *btf.Spec, o layout.Options) (out, missing string) {
	t.Helper()
	l := layout.NewListing(o)
	var b bytes.Buffer
	if _, err := l.NamedUnit(&b, path, s, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Finish(&b); err != nil {
		t.Fatal(err)
	}
	missing, _ = l.Missing()
	return b.String(), missing
}

// paholeArgs is a pahole command line for a case and an input.
func paholeArgs(c filterCase, path string, fromBTF bool) []string {
	args := append([]string{}, c.args...)
	if fromBTF {
		args = append([]string{"-F", "btf"}, args...)
	}
	return append(args, path)
}

// checkAgainstPath compares btfkit with the pahole on PATH on one input.
func checkAgainstPath(t *testing.T, c filterCase, path string, fromBTF bool) {
	t.Helper()
	args := paholeArgs(c, path, fromBTF)
	want, wantMissing := pahole(t, optionCase{c.name, nil, c.opts}, args...)
	got, missing := listFile(t, path, fromBTF, c.opts)
	if got != want {
		t.Errorf("pahole %s: %s\n--- got\n%.3000s\n--- want\n%.3000s", strings.Join(args, " "), diffTypes(got, want), got, want)
	}
	if missing != wantMissing {
		t.Errorf("pahole %s: type not found: %q, want %q", strings.Join(args, " "), missing, wantMissing)
	}
}

// TestFilters: testdata/filter.c from gcc and clang, DWARF 4 and 5, -O0
// and -O2, and the BTF pahole -J makes of the -O2 objects.
func TestFilters(t *testing.T) {
	testc.Require(t, "pahole")
	src := fixtureSource(t, "filter.c")
	for _, v := range testc.DWARFVariants() {
		obj := testc.Compile(t, src, v)
		inputs := []struct {
			kind    string
			path    string
			fromBTF bool
		}{{"dwarf", obj, false}}
		if v.Flags[1] == "-O2" {
			inputs = append(inputs, struct {
				kind    string
				path    string
				fromBTF bool
			}{"btf", withBTF(t, obj), true})
		}
		for _, in := range inputs {
			for _, c := range filterCases {
				t.Run(v.Name()+"/"+in.kind+"/"+c.name, func(t *testing.T) {
					checkAgainstPath(t, c, in.path, in.fromBTF)
				})
			}
		}
	}
}

// TestFiltersFlexible: the flexible array filters on
// testdata/filterflex.c, from DWARF and BTF.
func TestFiltersFlexible(t *testing.T) {
	testc.Require(t, "pahole")
	for _, v := range variantsO2() {
		obj := testc.Compile(t, fixtureSource(t, "filterflex.c"), v)
		btfObj := withBTF(t, obj)
		for _, c := range flexCases {
			t.Run(v.Name()+"/dwarf/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, obj, false) })
			t.Run(v.Name()+"/btf/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, btfObj, true) })
		}
	}
}

// TestFiltersDeclAndUnits: -D (declaration files) and -X (unit names),
// whose arguments are paths the compilers recorded, and what pahole does
// across two units.
func TestFiltersDeclAndUnits(t *testing.T) {
	testc.Require(t, "pahole")
	src := fixtureSource(t, "filter.c")
	dir := filepath.Dir(src)
	header := filepath.Join(dir, "filter.h")
	for _, v := range testc.DWARFVariants() {
		obj := testc.Compile(t, src, v)
		for _, c := range []filterCase{
			{"decl_exclude-header", []string{"-D", header}, layout.Options{DeclExcludePrefix: prefix(header)}},
			{"decl_exclude-source", []string{"-D", src, "-s"}, layout.Options{DeclExcludePrefix: prefix(src), Sizes: true}},
			{"decl_exclude-dir", []string{"-D", dir}, layout.Options{DeclExcludePrefix: prefix(dir)}},
			{"decl_exclude-other", []string{"-D", "/nonexistent", "-n"}, layout.Options{DeclExcludePrefix: prefix("/nonexistent"), NrMembers: true}},
			{"cu_exclude", []string{"-X", src}, layout.Options{CUExcludePrefix: prefix(src)}},
			{"cu_exclude-other", []string{"-X", "/nonexistent", "-s"}, layout.Options{CUExcludePrefix: prefix("/nonexistent"), Sizes: true}},
		} {
			t.Run(v.Name()+"/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, obj, false) })
		}
		if v.Flags[1] != "-O2" {
			continue
		}
		// From BTF no type has a declaration file, and the unit is named
		// by the file's path as given.
		btfObj := withBTF(t, obj)
		for _, c := range []filterCase{
			{"btf-decl_exclude", []string{"-D", "/nonexistent", "-s"}, layout.Options{DeclExcludePrefix: prefix("/nonexistent"), Sizes: true}},
			{"btf-cu_exclude", []string{"-X", filepath.Dir(btfObj)}, layout.Options{CUExcludePrefix: prefix(filepath.Dir(btfObj))}},
			{"btf-cu_exclude-other", []string{"-X", src, "-n"}, layout.Options{CUExcludePrefix: prefix(src), NrMembers: true}},
		} {
			t.Run(v.Name()+"/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, btfObj, true) })
		}
	}
	// Compiled from relative paths: clang records "." as a directory,
	// which libdw does not join with the comp dir ("./filter.h").
	relDir := t.TempDir()
	for _, f := range []string{"filter.c", "filter.h"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(relDir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range variantsO2() {
		testc.Require(t, string(v.CC))
		obj := filepath.Join(relDir, v.Name()+".o")
		cmd := exec.Command(string(v.CC), append(append([]string{"-c", "-o", obj}, v.Flags...), "filter.c")...)
		cmd.Dir = relDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		for _, c := range []filterCase{
			{"relative-decl_exclude-dot", []string{"-D", "./", "-s"}, layout.Options{DeclExcludePrefix: prefix("./"), Sizes: true}},
			{"relative-decl_exclude-dir", []string{"-D", relDir, "-s"}, layout.Options{DeclExcludePrefix: prefix(relDir), Sizes: true}},
			{"relative-cu_exclude", []string{"-X", "filter", "-s"}, layout.Options{CUExcludePrefix: prefix("filter"), Sizes: true}},
		} {
			t.Run(v.Name()+"/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, obj, false) })
		}
	}
	for _, cc := range []testc.Compiler{testc.GCC, testc.Clang} {
		v := testc.Variant{CC: cc, Flags: []string{"-gdwarf-5", "-O2"}}
		linked := linkUnits(t, v)
		second := fixtureSource(t, "filterunits2.c")
		cases := append(append([]filterCase{}, unitsCases...),
			filterCase{"cu_exclude", []string{"-X", second}, layout.Options{CUExcludePrefix: prefix(second)}},
			filterCase{"cu_exclude-sort", []string{"--sort", "-X", strings.TrimSuffix(second, "2.c")},
				layout.Options{Sort: true, CUExcludePrefix: prefix(strings.TrimSuffix(second, "2.c"))}})
		for _, c := range cases {
			t.Run("units-"+v.Name()+"/"+c.name, func(t *testing.T) { checkAgainstPath(t, c, linked, false) })
		}
	}
}

// TestFiltersSelect: on the fixture each filter case selects some types
// and not all, so that no case passes by printing nothing, or everything,
// on both sides.
func TestFiltersSelect(t *testing.T) {
	testc.Require(t, "pahole")
	obj := testc.Compile(t, fixtureSource(t, "filter.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O0"}})
	for _, c := range filterCases {
		o := c.opts
		got, _ := listFile(t, obj, false, o)
		// These select nothing, as pahole's do: -H -1 asks for 65535
		// holes; --structs --unions for types both; --unions with a
		// struct-only filter for unions with holes.
		if got == "" && c.name != "contains-missing" && c.name != "holes-negative" && c.name != "structs-unions" &&
			(!strings.HasPrefix(c.name, "unions-") || c.name == "unions-holes0") {
			t.Errorf("%s prints nothing", c.name)
		}
		filtering := o.NrHoles != 0 || o.NrBitHoles != 0 || o.HoleSizeGE != 0 || o.JustStructs || o.JustUnions ||
			o.AnonInclude || o.ExcludePrefix != nil || o.IncludePrefix != nil || o.WithFlexibleArray || o.ShowPrivateClasses
		if !filtering {
			continue
		}
		base := layout.Options{Sizes: o.Sizes, NrMembers: o.NrMembers, ClassNameLen: o.ClassNameLen,
			NamesOnly: o.NamesOnly, Separator: o.Separator, ShowOnlyDataMembers: o.ShowOnlyDataMembers}
		if all, _ := listFile(t, obj, false, base); got == all {
			t.Errorf("%s prints what it prints without its filters", c.name)
		}
	}
}
