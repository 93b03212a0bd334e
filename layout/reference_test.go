package layout_test

import (
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The listings of the Debian 6.1 kernel that pahole 1.31 printed
// (testdata/README.md says how): `pahole -F btf embedded.btf` and
// `pahole vmlinux` (DWARF).
const refDir = "debian-6.1.0-57-cloud/"

// embeddedBTF is the Debian vmlinux's .BTF section.
func embeddedBTF(t *testing.T) (path string, s *btf.Spec) {
	t.Helper()
	path = testenv.Reference(t, refDir+"embedded.btf")
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

func TestReferenceBTF(t *testing.T) {
	want := readFile(t, testenv.Reference(t, refDir+"layout-btf-pahole-1.31.txt"))
	_, s := embeddedBTF(t)
	got, _ := listBTF(t, s, layout.Options{CachelineSize: 64})
	if got != want {
		t.Fatalf("pahole -F btf embedded.btf: %s", diffTypes(got, want))
	}
	if n := len(splitTypes(got)); n != 7477 {
		t.Errorf("%d types, want 7,477", n)
	}
}

func TestReferenceDWARF(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	want := readFile(t, testenv.Reference(t, refDir+"layout-dwarf-pahole-1.31.txt"))
	got, _ := listDWARF(t, vmlinux, layout.Options{CachelineSize: 64})
	if got != want {
		t.Fatalf("pahole vmlinux: %s", diffTypes(got, want))
	}
	if n := len(splitTypes(got)); n != 7464 {
		t.Errorf("%d types, want 7,464", n)
	}
}

// TestReferenceTypedefs: typedefs of a named union, of anonymous structs
// and of a pointer, an enum and unions with --hex, as pahole 1.31 prints
// them (1.24 spaces them differently; scripts/layout-testdata made the
// file).
func TestReferenceTypedefs(t *testing.T) {
	_, s := embeddedBTF(t)
	names := []string{"u32", "pid_type", "sigval_t", "atomic_t", "cpumask_var_t", "rwlock_t", "fpregs_state", "qspinlock"}
	got, missing := listBTF(t, s, layout.Options{CachelineSize: 64, Hex: true, ClassNames: names})
	want := readFile(t, filepath.Join("testdata", "embedded-typedefs.txt"))
	if got != want || missing != "" {
		t.Errorf("pahole -F btf --hex -C %v: missing %q, %s", names, missing, diffTypes(got, want))
	}
}
