package encode

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// requireModules returns the directory of the Debian modules, or stops
// the test through testenv.SkipOrFail when they are not installed.
func requireModules(t *testing.T) string {
	t.Helper()
	if raceEnabled || testing.Short() {
		t.Skip("SKIP: module encodes in -short mode or under the race detector")
	}
	_, d := testenv.KernelInputs(t)
	return d
}

// TestModulesFuncsMatchPahole132 encodes a sample of the Debian modules
// split against pahole 1.32's vmlinux BTF, as the kernel build does, and
// compares FUNCs (with prototypes), VARs and DATASECs with pahole 1.32's
// split BTF of the same modules. lockd has a function whose two symbols
// are at two addresses but which pahole (1.31 and 1.32) encodes anyway
// (the last name of its table is never checked for ambiguity); kvm and
// sctp have per-CPU variables.
func TestModulesFuncsMatchPahole132(t *testing.T) {
	modDir := requireModules(t)
	refModulesTar := reference(t, "modules-pahole-1.32.tar.xz")
	base, err := btf.LoadFile(vmlinux132(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"xfs", "nf_tables", "kvm", "vxlan", "fuse", "sctp", "btrfs", "bonding", "tun", "virtio_net", "dm-mod", "lockd"}
	tmp := t.TempDir()
	args := []string{"-xJf", refModulesTar, "-C", tmp}
	for _, n := range names {
		args = append(args, "btf/"+n+".btf")
	}
	if out, err := exec.Command("tar", args...).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	kinds := []btf.Kind{btf.KindFunc, btf.KindVar, btf.KindDatasec}
	for _, n := range names {
		matches, _ := filepath.Glob(filepath.Join(modDir, "kernel", "*", "*", n+".ko*"))
		if len(matches) == 0 {
			matches, _ = filepath.Glob(filepath.Join(modDir, "kernel", "*", "*", "*", n+".ko*"))
		}
		if len(matches) == 0 {
			matches, _ = filepath.Glob(filepath.Join(modDir, "kernel", "*", "*", "*", "*", n+".ko*"))
		}
		if len(matches) == 0 {
			t.Errorf("%s.ko not found under %s", n, modDir)
			continue
		}
		s, err := EncodeFile(matches[0], Options{Features: DefaultFeatures})
		if err != nil {
			t.Fatal(err)
		}
		merged, err := dedup.MergeOnto(base, s)
		if err != nil {
			t.Fatal(err)
		}
		split, _, err := dedup.Dedup(merged, dedup.Options{KeepDuplicateVars: true})
		if err != nil {
			t.Fatal(err)
		}
		want, err := btf.LoadFile(filepath.Join(tmp, "btf", n+".btf"), base)
		if err != nil {
			t.Fatal(err)
		}
		r := diff.Compare(split, want, diff.Options{Kinds: kinds})
		if !r.Equal() {
			t.Errorf("%s: our FUNCs/VARs (A) differ from pahole 1.32's (B):\n%s", n, diffText(r))
		}
		t.Logf("%s: %d FUNC, %d VAR", n, r.CountsA[btf.KindFunc], r.CountsA[btf.KindVar])
	}
}
