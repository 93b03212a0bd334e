package encode

import (
	"github.com/btfkit/btfkit/internal/refdata"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/diff"
)

var (
	refModulesTar = refdata.Dir + "/reference/debian-6.1.0-57-cloud/modules-pahole-1.31-head.tar.xz"
	refEmbedded   = refdata.Dir + "/reference/debian-6.1.0-57-cloud/embedded.btf"
)

// requireModules returns the directory of the Debian modules (MODULES=
// of kernel-inputs), or skips.
func requireModules(t *testing.T) string {
	t.Helper()
	if raceEnabled || testing.Short() {
		t.Skip("SKIP: module encodes in -short mode or under the race detector")
	}
	_, d, err := refdata.KernelInputs()
	if err == nil {
		return d
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("kernel modules not found: %v", err)
	}
	t.Skipf("SKIP: kernel modules not found (%v)", err)
	return ""
}

// TestModulesFuncsMatchPahole131 encodes a sample of the Debian modules
// split against the embedded vmlinux BTF, as the kernel build does, and
// compares FUNCs (with prototypes), VARs and DATASECs with pahole 1.31's
// split BTF of the same modules. lockd has a function whose two symbols
// are at two addresses but which pahole 1.31 encodes anyway (the last
// name of its table is never checked for ambiguity); kvm and sctp have
// per-CPU variables.
func TestModulesFuncsMatchPahole131(t *testing.T) {
	modDir := requireModules(t)
	requireFile(t, refModulesTar)
	requireFile(t, refEmbedded)
	base, err := btf.LoadFile(refEmbedded, nil)
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
			t.Errorf("%s: our FUNCs/VARs (A) differ from pahole 1.31's (B):\n%s", n, diffText(r))
		}
		t.Logf("%s: %d FUNC, %d VAR", n, r.CountsA[btf.KindFunc], r.CountsA[btf.KindVar])
	}
}
