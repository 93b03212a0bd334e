package layout_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The filters and listings on the Debian kernel: its BTF (embedded.btf)
// and its vmlinux's DWARF (2,172 compile units: what -X, -D,
// --show_private_classes, -a, --contains_enumerator, -i and --sort do
// across units). Against the pahole on PATH (1.32) at test time on
// embedded.btf (a second each); on the vmlinux's DWARF, which takes pahole
// 1.32 over a minute and 2.5 GB per command line, against its output
// committed as
// testdata/reference/debian-6.1.0-57-cloud/layout-filters-pahole-1.32.txt
// (made by this test run with -update; scripts/layout-testdata).

var update = flag.Bool("update", false, "regenerate the committed pahole 1.32 outputs of the vmlinux filter tests with the pahole on PATH")

const filtersReference = refDir + "layout-filters-pahole-1.32.txt"

// embeddedCases are run on embedded.btf.
var embeddedCases = []filterCase{
	{"sizes", []string{"-s"}, layout.Options{Sizes: true}},
	{"nr_members-separator", []string{"-n", "-t", ","}, layout.Options{NrMembers: true, Separator: ","}},
	{"class_name_len", []string{"-N"}, layout.Options{ClassNameLen: true}},
	{"hole_size_ge", []string{"-z", "16"}, layout.Options{HoleSizeGE: 16, NamesOnly: true}},
	{"unions", []string{"--unions"}, layout.Options{JustUnions: true}},
	{"sort-unions", []string{"--sort", "--unions"}, layout.Options{Sort: true, JustUnions: true}},
	{"anon-sizes", []string{"-a", "-s"}, layout.Options{AnonInclude: true, Sizes: true}},
	{"anon-nested-unions", []string{"-a", "-A", "--unions", "-n"},
		layout.Options{AnonInclude: true, NestedAnonInclude: true, JustUnions: true, NrMembers: true}},
	{"packed-sizes", []string{"-s", "--packed"}, layout.Options{Sizes: true, JustStructs: true, JustPacked: true}},
	{"holes-sizes", []string{"-H", "4", "-s"}, layout.Options{NrHoles: 4, Sizes: true}},
	{"bit_holes-nr_members", []string{"-B", "2", "-n"}, layout.Options{NrBitHoles: 2, NrMembers: true}},
	{"structs-prefix-sizes", []string{"--structs", "-y", "rt", "-s"},
		layout.Options{JustStructs: true, IncludePrefix: prefix("rt"), Sizes: true}},
	{"exclude-sizes", []string{"-x", "s", "-s"}, layout.Options{ExcludePrefix: prefix("s"), Sizes: true}},
	{"contains", []string{"-i", "list_head", "-d"}, layout.Options{FindContainers: true, Recursive: true, ClassNames: list("list_head")}},
	{"find_pointers_to", []string{"-f", "task_struct"}, layout.Options{FindPointers: true, ClassNames: list("task_struct")}},
	{"nr_definitions", []string{"-T", "-y", "s"}, layout.Options{NrDefinitions: true, IncludePrefix: prefix("s")}},
	{"packed", []string{"--packed"}, layout.Options{JustStructs: true, JustPacked: true}},
	{"holes", []string{"-H", "10"}, layout.Options{NrHoles: 10}},
	{"bit_holes", []string{"-B", "3"}, layout.Options{NrBitHoles: 3}},
	{"prefix_filter", []string{"-y", "task"}, layout.Options{IncludePrefix: prefix("task")}},
	{"sort-prefix_filter", []string{"--sort", "-y", "task"}, layout.Options{Sort: true, IncludePrefix: prefix("task")}},
	{"padding_ge", []string{"--padding_ge=32"}, layout.Options{PaddingGE: 32}},
	{"padding-sizes", []string{"--padding=8", "-s"}, layout.Options{PaddingGE: 8, Sizes: true}},
	{"with_embedded_flexible_array", []string{"--with_embedded_flexible_array"}, layout.Options{JustStructs: true, WithEmbeddedFlexibleArray: true}},
	{"with_flexible_array", []string{"--with_flexible_array", "-y", "s"}, layout.Options{WithFlexibleArray: true, IncludePrefix: prefix("s")}},
	{"anon-prefix_filter", []string{"-a", "-y", "pt"}, layout.Options{AnonInclude: true, IncludePrefix: prefix("pt")}},
	{"anon-unions", []string{"-a", "--unions"}, layout.Options{AnonInclude: true, JustUnions: true}},
	{"contains_enumerator", []string{"--contains_enumerator=S_VERSION"}, layout.Options{ContainsEnumerator: "S_VERSION"}},
	// pahole 1.32 applies the struct-only filters to unions.
	{"unions-holes", []string{"--unions", "-H", "1"}, layout.Options{JustUnions: true, NrHoles: 1}},
	{"unions-with_flexible_array", []string{"--unions", "--with_flexible_array", "-s"}, layout.Options{JustUnions: true, WithFlexibleArray: true, Sizes: true}},
	{"unions-packable", []string{"--unions", "-P"}, layout.Options{JustUnions: true, Packable: true}},
}

// vmlinuxCases are run on the vmlinux's DWARF.
var vmlinuxCases = []filterCase{
	{"private-anon-cu-decl", []string{"-s", "--show_private_classes", "-a", "-A", "-X", "arch/x86/", "-D", "include/uapi"},
		layout.Options{Sizes: true, ShowPrivateClasses: true, ShowOnlyDataMembers: true, AnonInclude: true, NestedAnonInclude: true,
			CUExcludePrefix: prefix("arch/x86/"), DeclExcludePrefix: prefix("include/uapi")}},
	{"contains", []string{"-i", "list_head", "-d"}, layout.Options{FindContainers: true, Recursive: true, ClassNames: list("list_head")}},
	{"find_pointers_to", []string{"-f", "task_struct"}, layout.Options{FindPointers: true, ClassNames: list("task_struct")}},
	{"contains_enumerator", []string{"--contains_enumerator=S_VERSION", "-s"}, layout.Options{ContainsEnumerator: "S_VERSION", Sizes: true}},
	{"sort-prefix_filter", []string{"--sort", "-y", "task"}, layout.Options{Sort: true, IncludePrefix: prefix("task")}},
	// How many of the 2,172 units define each struct alike.
	{"nr_definitions", []string{"-T"}, layout.Options{NrDefinitions: true}},
}

// paholeRun runs a pahole binary and returns its standard output.
func paholeRun(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// golden is a committed file of pahole outputs: sections, each a line
// "### pahole ARGS INPUT" and the output.
type golden struct {
	path     string
	sections map[string]string
	order    []string
}

const goldenMark = "### pahole "

func readGolden(t *testing.T, path string) *golden {
	t.Helper()
	g := &golden{path: path, sections: map[string]string{}}
	data := readFile(t, path)
	key := ""
	var cur strings.Builder
	flush := func() {
		if key != "" {
			g.sections[key] = cur.String()
			g.order = append(g.order, key)
		}
		cur.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if strings.HasPrefix(line, goldenMark) {
			flush()
			key = strings.TrimSuffix(line, "\n")
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return g
}

// want returns the committed output for args on the input, which is
// named INPUT in the file; with -update it runs the pahole on PATH
// instead and records the output.
func (g *golden) want(t *testing.T, args []string, input string) string {
	t.Helper()
	key := goldenMark + strings.Join(append(args[:len(args)-1:len(args)-1], input), " ")
	if !*update {
		want, ok := g.sections[key]
		if !ok {
			t.Fatalf("%s has no %q: regenerate it with scripts/layout-testdata", g.path, key)
		}
		return want
	}
	if _, dup := g.sections[key]; !dup {
		g.order = append(g.order, key)
	}
	g.sections[key] = paholeRun(t, "pahole", args...)
	return g.sections[key]
}

// kernelGolden reads (or, with -update, starts) the committed pahole
// 1.32 outputs for the vmlinux.
func kernelGolden(t *testing.T) *golden {
	t.Helper()
	stored := filepath.Join(testenv.Root(t), testenv.ReferenceDir, filtersReference)
	if *update {
		return &golden{path: stored, sections: map[string]string{}}
	}
	g := readGolden(t, testenv.Reference(t, filtersReference))
	g.path = stored
	return g
}

// writeKernelGolden stores the outputs recorded with -update, xz
// compressed as testdata/reference keeps its files.
func writeKernelGolden(t *testing.T, g *golden) {
	t.Helper()
	if !*update {
		return
	}
	var b strings.Builder
	for _, k := range g.order {
		b.WriteString(k + "\n" + g.sections[k])
	}
	if err := os.WriteFile(g.path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "xz", "-9e", "-f", g.path)
}

// TestFiltersKernel: embedded.btf against pahole at test time, the
// vmlinux's DWARF against its committed output.
func TestFiltersKernel(t *testing.T) {
	testc.Require(t, "pahole")
	embedded, s := embeddedBTF(t)
	t.Run("btf", func(t *testing.T) {
		for _, c := range embeddedCases {
			args := paholeArgs(c, embedded, true)
			want := paholeRun(t, "pahole", args...)
			got, _ := listSpec(t, embedded, s, c.opts)
			if got != want {
				t.Errorf("pahole %s: %s", strings.Join(args, " "), diffTypes(got, want))
			}
		}
	})
	t.Run("dwarf", func(t *testing.T) {
		if testing.Short() {
			t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
		}
		vmlinux, _ := testenv.KernelInputs(t)
		g := kernelGolden(t)
		want := make([]string, len(vmlinuxCases))
		opts := make([]layout.Options, len(vmlinuxCases))
		for i, c := range vmlinuxCases {
			want[i] = g.want(t, paholeArgs(c, vmlinux, false), "vmlinux")
			opts[i] = c.opts
		}
		got, _ := listDWARFBatches(t, vmlinux, opts, 0)
		for i, c := range vmlinuxCases {
			if got[i] != want[i] {
				t.Errorf("pahole %s vmlinux: %s", strings.Join(c.args, " "), diffTypes(got[i], want[i]))
			}
		}
		if !t.Failed() {
			writeKernelGolden(t, g)
		}
	})
}
