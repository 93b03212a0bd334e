package encode

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/btf/distill"
	"github.com/btfkit/btfkit/kmod"
)

// TestDistilledBaseMatchesPahole132: for the 20 modules of the reference
// distilled-pahole-1.32.tar.xz (pahole 1.32 with distilled_base against
// its own vmlinux BTF, vmlinux132), our split BTF of the module,
// distilled, gives pahole 1.32's .BTF.base and .BTF (semantic diff, each
// against its own base); relocated onto the vmlinux BTF and deduplicated
// against it, it is our module BTF again.
func TestDistilledBaseMatchesPahole132(t *testing.T) {
	mods, err := kmod.Find([]string{splitModulesDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, m := range mods {
		byName[m.Name] = m.Path
	}
	ref := t.TempDir()
	tarball := reference(t, "distilled-pahole-1.32.tar.xz")
	if out, err := exec.Command("tar", "-xJf", tarball, "-C", ref).CombinedOutput(); err != nil {
		t.Fatalf("tar %s: %v: %s", tarball, err, out)
	}
	base, err := LoadBase(vmlinux132(t))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields("sctp xfs mlx5_core btrfs kvm kvm-intel cifs nf_tables vxlan nf_conntrack 8021q iptable_filter vfat bonding tun virtio_net nfsd ib_core dm-mod fuse")
	if testing.Short() {
		names = names[10:]
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			spec, err := EncodeSplit(byName[name], base, Options{Features: DefaultFeatures, Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			db, ds, err := distill.Distill(spec)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := btf.LoadFile(filepath.Join(ref, name+".BTF.base"), nil)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := btf.LoadFile(filepath.Join(ref, name+".BTF"), rb)
			if err != nil {
				t.Fatal(err)
			}
			if r := diff.Compare(db, rb, diff.Options{}); !r.Equal() {
				t.Errorf(".BTF.base differs from pahole 1.32's: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			if r := diff.Compare(ds, rs, diff.Options{}); !r.Equal() {
				t.Errorf(".BTF differs from pahole 1.32's: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			rel, err := distill.Relocate(ds, base.Spec())
			if err != nil {
				t.Fatal(err)
			}
			if err := rel.Check(); err != nil {
				t.Errorf("relocated: Check: %v", err)
			}
			// Deduplicated against the base as EncodeSplit does.
			onto := dedup.Options{KeepDuplicateVars: true, Base: base}
			back, _, err := dedup.Dedup(rel, onto)
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := dedup.Dedup(spec, onto)
			if err != nil {
				t.Fatal(err)
			}
			if r := diff.Compare(back, again, diff.Options{}); !r.Equal() {
				t.Errorf("relocated BTF is not the module's: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
		})
	}
}
