package layout_test

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// The listings of the Debian 6.1 kernel: from its BTF against the pahole
// on PATH (1.32) at test time, from its vmlinux's DWARF, which takes pahole
// 1.32 over a minute and 2.5 GB, against its output committed
// (testdata/README.md says how).
const refDir = "debian-6.1.0-57-cloud/"

// embeddedBTF is the Debian vmlinux's .BTF section.
func embeddedBTF(t *testing.T) (path string, s *btf.Spec) {
	t.Helper()
	return referenceBTF(t, refDir+"embedded.btf")
}

// referenceBTF loads a BTF of testdata/reference.
func referenceBTF(t *testing.T, name string) (path string, s *btf.Spec) {
	t.Helper()
	path = testenv.Reference(t, name)
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}

// TestReferenceBTF: `pahole -F btf` on the .BTF Debian's pahole 1.24 made
// of the vmlinux (arrays of one ARRAY each) and on pahole 1.32's BTF of
// the same vmlinux (one ARRAY per dimension, which 1.32 prints folded):
// the same 7,477 types.
func TestReferenceBTF(t *testing.T) {
	testc.Require(t, "pahole")
	var listings []string
	for _, name := range []string{refDir + "embedded.btf", "pahole-1.32/debian-6.1.0-57-cloud.btf"} {
		t.Run(name, func(t *testing.T) {
			path, s := referenceBTF(t, name)
			want := paholeOut(t, "pahole", "-F", "btf", path)
			got, _ := listBTF(t, s, layout.Options{CachelineSize: 64})
			if got != want {
				t.Fatalf("pahole -F btf %s: %s", name, diffTypes(got, want))
			}
			if n := len(splitTypes(got)); n != 7477 {
				t.Errorf("%d types, want 7,477", n)
			}
			listings = append(listings, got)
		})
	}
	if len(listings) == 2 && listings[0] == listings[1] {
		t.Errorf("the two BTFs list alike: pahole 1.32's has multi-dimensional arrays that 1.24's flattens")
	}
}

func TestReferenceDWARF(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: converts the whole vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	want := readFile(t, testenv.Reference(t, refDir+"layout-dwarf-pahole-1.32.txt"))
	got, _ := listDWARF(t, vmlinux, layout.Options{CachelineSize: 64})
	if got != want {
		t.Fatalf("pahole vmlinux: %s", diffTypes(got, want))
	}
	if n := len(splitTypes(got)); n != 7464 {
		t.Errorf("%d types, want 7,464", n)
	}
}

// TestReferenceTypedefs: typedefs of a named union, of anonymous structs
// and of a pointer, an enum and unions with --hex (Debian's pahole 1.24
// spaces them otherwise).
func TestReferenceTypedefs(t *testing.T) {
	testc.Require(t, "pahole")
	embedded, s := embeddedBTF(t)
	names := "u32,pid_type,sigval_t,atomic_t,cpumask_var_t,rwlock_t,fpregs_state,qspinlock"
	c := optionCase{"typedefs", []string{"--hex", "-C", names}, layout.Options{CachelineSize: 64, Hex: true, ClassNames: list(names)}}
	want, wantMissing := pahole(t, c, "-F", "btf", embedded)
	got, missing := listBTF(t, s, c.opts)
	if got != want || missing != wantMissing {
		t.Errorf("pahole -F btf --hex -C %s: missing %q (want %q), %s", names, missing, wantMissing, diffTypes(got, want))
	}
}
