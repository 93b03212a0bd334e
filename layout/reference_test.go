package layout_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ulikunitz/xz"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/refdata"
	"github.com/btfkit/btfkit/layout"
)

// The listings of the Debian 6.1 kernel that pahole 1.31 printed
// (shared/reference/README.md says how): `pahole -F btf embedded.btf` and
// `pahole vmlinux` (DWARF).
var refDir = filepath.Join(refdata.Dir, "reference", "debian-6.1.0-57-cloud")

func readXZ(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("SKIP: reference output: %v", err)
	}
	defer f.Close()
	r, err := xz.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReferenceBTF(t *testing.T) {
	want := readXZ(t, filepath.Join(refDir, "layout-btf-pahole-1.31.txt.xz"))
	s, err := btf.LoadFile(filepath.Join(refDir, "embedded.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
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
	vmlinux, _, err := refdata.KernelInputs()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("SKIP: %v", err)
	}
	want := readXZ(t, filepath.Join(refDir, "layout-dwarf-pahole-1.31.txt.xz"))
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
	s, err := btf.LoadFile(filepath.Join(refDir, "embedded.btf"), nil)
	if err != nil {
		t.Skipf("SKIP: %v", err)
	}
	names := []string{"u32", "pid_type", "sigval_t", "atomic_t", "cpumask_var_t", "rwlock_t", "fpregs_state", "qspinlock"}
	got, missing := listBTF(t, s, layout.Options{CachelineSize: 64, Hex: true, ClassNames: names})
	want := readFile(t, filepath.Join("testdata", "embedded-typedefs.txt"))
	if got != want || missing != "" {
		t.Errorf("pahole -F btf --hex -C %v: missing %q, %s", names, missing, diffTypes(got, want))
	}
}
