package pfunct_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestKernelBTFPrototypes: the prototype of every function in the BTF
// Debian's build embedded in its vmlinux (pahole 1.24's) and in pahole
// 1.32's BTF of it, `pfunct -F btf --prototypes`, against the pfunct on
// PATH (1.32) run now.
func TestKernelBTFPrototypes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: pfunct takes about 15 s on the kernel's BTF")
	}
	testc.Require(t, "pfunct")
	for _, name := range []string{"debian-6.1.0-57-cloud/embedded.btf", "pahole-1.32/debian-6.1.0-57-cloud.btf"} {
		btfFile := testenv.Reference(t, name)
		want, err := exec.Command("pfunct", "-F", "btf", "--prototypes", btfFile).Output()
		if err != nil {
			t.Fatalf("pfunct: %v", err)
		}
		got := runTool(t, "", pfunctLink(t), "-F", "btf", "--prototypes", btfFile)
		if got.code != 0 || got.out != string(want) {
			t.Errorf("pfunct -F btf --prototypes %s: %s", name, diffLines(got, result{string(want), 0}))
		}
	}
}

// TestKernelDWARFPrototypes: the same from the vmlinux's DWARF, `pfunct -F
// dwarf --prototypes`, against pfunct 1.32's output (committed: it runs
// for many minutes).
func TestKernelDWARFPrototypes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads the whole vmlinux DWARF")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	ref := testenv.Reference(t, "debian-6.1.0-57-cloud/pfunct-dwarf-prototypes-1.32.txt")
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	got := runTool(t, "", pfunctLink(t), "-F", "dwarf", "--prototypes", vmlinux)
	if got.code != 0 || got.out != string(want) {
		t.Errorf("pfunct -F dwarf --prototypes vmlinux: %s", diffLines(got, result{string(want), 0}))
	}
}
