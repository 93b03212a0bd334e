package layout_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/internal/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The filters and listings on the Debian kernel: its BTF (embedded.btf)
// and its vmlinux's DWARF (2,172 compile units: what -X, -D,
// --show_private_classes, -a, --contains_enumerator, -i and --sort do
// across units). Against pahole 1.24 at test time where it prints what
// 1.31 prints (mostly the one-line listings: 1.24 lays out many kernel
// structs differently), else against pahole 1.31's output committed as
// testdata/reference/debian-6.1.0-57-cloud/layout-filters-pahole-1.31.txt
// (made by this test run with -pahole131; scripts/layout-testdata).

const filtersReference = refDir + "layout-filters-pahole-1.31.txt"

// embeddedCases are run on embedded.btf against pahole 1.24.
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
}

// embedded131Cases are run on embedded.btf against pahole 1.31.
var embedded131Cases = []filterCase{
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
}

// vmlinuxCases are run on the vmlinux's DWARF against pahole 1.24.
var vmlinuxCases = []filterCase{
	{"private-anon-cu-decl", []string{"-s", "--show_private_classes", "-a", "-A", "-X", "arch/x86/", "-D", "include/uapi"},
		layout.Options{Sizes: true, ShowPrivateClasses: true, ShowOnlyDataMembers: true, AnonInclude: true, NestedAnonInclude: true,
			CUExcludePrefix: prefix("arch/x86/"), DeclExcludePrefix: prefix("include/uapi")}},
	{"contains", []string{"-i", "list_head", "-d"}, layout.Options{FindContainers: true, Recursive: true, ClassNames: list("list_head")}},
	{"find_pointers_to", []string{"-f", "task_struct"}, layout.Options{FindPointers: true, ClassNames: list("task_struct")}},
}

// vmlinux131Cases are run on the vmlinux's DWARF against pahole 1.31.
var vmlinux131Cases = []filterCase{
	{"contains_enumerator", []string{"--contains_enumerator=S_VERSION", "-s"}, layout.Options{ContainsEnumerator: "S_VERSION", Sizes: true}},
	{"sort-prefix_filter", []string{"--sort", "-y", "task"}, layout.Options{Sort: true, IncludePrefix: prefix("task")}},
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

// kernelGolden reads (or, with -pahole131, starts) the committed pahole
// 1.31 outputs for the kernel.
func kernelGolden(t *testing.T) *golden131 {
	t.Helper()
	checkPahole131Version(t)
	stored := filepath.Join(testenv.Root(t), testenv.ReferenceDir, filtersReference)
	if *pahole131 != "" {
		return &golden131{path: stored, sections: map[string]string{}}
	}
	g := readGolden131(t, testenv.Reference(t, filtersReference))
	g.path = stored
	return g
}

// writeKernelGolden stores the outputs recorded with -pahole131, xz
// compressed as testdata/reference keeps its files.
func writeKernelGolden(t *testing.T, g *golden131) {
	t.Helper()
	if *pahole131 == "" {
		return
	}
	g.write(t)
	testc.Run(t, "xz", "-9e", "-f", g.path)
}

// TestFiltersKernel: embedded.btf and the vmlinux's DWARF; the expected
// outputs of 1.24 are made in parallel with btfkit's.
func TestFiltersKernel(t *testing.T) {
	testc.Require(t, "pahole")
	g := kernelGolden(t)
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
		for _, c := range embedded131Cases {
			args := paholeArgs(c, embedded, true)
			want := g.want(t, args, "embedded.btf")
			got, _ := listSpec(t, embedded, s, c.opts)
			if got != want {
				t.Errorf("pahole %s: %s", strings.Join(args, " "), diffTypes(got, want))
			}
		}
	})
	dwarfRan := false
	t.Run("dwarf", func(t *testing.T) {
		if testing.Short() {
			t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
		}
		vmlinux, _ := testenv.KernelInputs(t)
		cases := append(append([]filterCase{}, vmlinuxCases...), vmlinux131Cases...)
		want := make([]string, len(cases))
		var wg sync.WaitGroup
		var mu sync.Mutex
		var errs []string
		for i, c := range cases[:len(vmlinuxCases)] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				args := paholeArgs(c, vmlinux, false)
				cmd := exec.Command("pahole", args...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					mu.Lock()
					errs = append(errs, "pahole "+strings.Join(args, " ")+": "+err.Error()+"\n"+stderr.String())
					mu.Unlock()
				}
				want[i] = string(out)
			}()
		}
		for i, c := range vmlinux131Cases {
			want[len(vmlinuxCases)+i] = g.want(t, paholeArgs(c, vmlinux, false), "vmlinux")
		}
		opts := make([]layout.Options, len(cases))
		for i, c := range cases {
			opts[i] = c.opts
		}
		got, _ := listDWARFBatches(t, vmlinux, opts, 0)
		wg.Wait()
		for _, e := range errs {
			t.Fatal(e)
		}
		for i, c := range cases {
			if got[i] != want[i] {
				t.Errorf("pahole %s vmlinux: %s", strings.Join(c.args, " "), diffTypes(got[i], want[i]))
			}
		}
		dwarfRan = true
	})
	if *pahole131 != "" && !dwarfRan {
		t.Fatal("-pahole131 needs the vmlinux cases to run (no -short, VMLINUX set)")
	}
	if !t.Failed() {
		writeKernelGolden(t, g)
	}
}
