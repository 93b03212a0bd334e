package distill

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// distilledModules are the modules of distilled-pahole-1.32.tar.xz.
var distilledModules = strings.Fields("sctp xfs mlx5_core btrfs kvm kvm-intel cifs nf_tables vxlan nf_conntrack 8021q iptable_filter vfat bonding tun virtio_net nfsd ib_core dm-mod fuse")

// references unpacks pahole 1.32's split module BTFs (against its vmlinux
// BTF, pahole-1.32/debian-6.1.0-57-cloud.btf) and its distilled outputs
// for the same modules.
func references(t *testing.T) (base *btf.Spec, modules, distilled string) {
	t.Helper()
	ref := func(name string) string { return testenv.Reference(t, "debian-6.1.0-57-cloud/"+name) }
	base, err := btf.LoadFile(testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf"), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	modules, distilled = filepath.Join(dir, "btf"), filepath.Join(dir, "distilled")
	os.Mkdir(distilled, 0o755)
	args := []string{"-xJf", ref("modules-pahole-1.32.tar.xz"), "-C", dir}
	for _, m := range distilledModules {
		args = append(args, "btf/"+m+".btf")
	}
	for _, c := range [][]string{args, {"-xJf", ref("distilled-pahole-1.32.tar.xz"), "-C", distilled}} {
		if out, err := exec.Command("tar", c...).CombinedOutput(); err != nil {
			t.Fatalf("tar %v: %v\n%s", c, err, out)
		}
	}
	return base, modules, distilled
}

func load(t *testing.T, path string, base *btf.Spec) *btf.Spec {
	t.Helper()
	s, err := btf.LoadFile(path, base)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDistillMatchesPahole132: for the 20 modules pahole 1.32 wrote
// distilled bases for, Distill of pahole's split BTF of the module (made
// by the same pahole without distilled_base) gives pahole's .BTF.base and
// .BTF: byte for byte, hence also semantically (btf/diff, checked too).
// Relocating the distilled split BTF onto the vmlinux BTF gives the
// module's BTF back: the same types after deduplication against the base,
// and a BTF that passes Check. Relocating pahole's own .BTF gives the
// same bytes as relocating ours.
func TestDistillMatchesPahole132(t *testing.T) {
	base, modules, distilled := references(t)
	pb, err := dedup.PrepareBase(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range distilledModules {
		t.Run(m, func(t *testing.T) {
			mod := load(t, filepath.Join(modules, m+".btf"), base)
			rawBase, err := os.ReadFile(filepath.Join(distilled, m+".BTF.base"))
			if err != nil {
				t.Fatal(err)
			}
			rawSplit, err := os.ReadFile(filepath.Join(distilled, m+".BTF"))
			if err != nil {
				t.Fatal(err)
			}
			refBase, err := btf.Parse(rawBase, nil)
			if err != nil {
				t.Fatal(err)
			}
			refSplit, err := btf.Parse(rawSplit, refBase)
			if err != nil {
				t.Fatal(err)
			}

			db, ds, err := Distill(mod)
			if err != nil {
				t.Fatal(err)
			}
			if r := diff.Compare(db, refBase, diff.Options{}); !r.Equal() {
				t.Errorf(".BTF.base differs semantically: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			if r := diff.Compare(ds, refSplit, diff.Options{}); !r.Equal() {
				t.Errorf(".BTF differs semantically: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			if !bytes.Equal(db.Marshal(nil), rawBase) {
				t.Errorf(".BTF.base: %d bytes, pahole's %d, not the same bytes", len(db.Marshal(nil)), len(rawBase))
			}
			if !bytes.Equal(ds.Marshal(nil), rawSplit) {
				t.Errorf(".BTF: %d bytes, pahole's %d, not the same bytes", len(ds.Marshal(nil)), len(rawSplit))
			}
			if err := db.Check(); err != nil {
				t.Errorf("distilled base: Check: %v", err)
			}
			if err := ds.Check(); err != nil {
				t.Errorf("distilled split: Check: %v", err)
			}

			rel, err := Relocate(ds, base)
			if err != nil {
				t.Fatal(err)
			}
			if rel.Base() != base || rel.FirstID() != base.NextID() || rel.NumTypes() != ds.NumTypes() {
				t.Errorf("relocated: base %p first ID %d, %d types; want %p, %d, %d", rel.Base(), rel.FirstID(), rel.NumTypes(), base, base.NextID(), ds.NumTypes())
			}
			if err := rel.Check(); err != nil {
				t.Errorf("relocated: Check: %v", err)
			}
			// Relocation brings back the base types distilling copied into
			// the split BTF (pointers, typedefs, ... of base types):
			// deduplicated against the base, it is the module's BTF, as is
			// the module's BTF deduplicated once more.
			back, _, err := dedup.Dedup(rel, dedup.Options{KeepDuplicateVars: true, Base: pb})
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := dedup.Dedup(mod, dedup.Options{KeepDuplicateVars: true, Base: pb})
			if err != nil {
				t.Fatal(err)
			}
			if r := diff.Compare(back, again, diff.Options{}); !r.Equal() {
				t.Errorf("relocated and deduplicated differs from the module's BTF: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			// Every type of the module is in the relocated BTF.
			if r := diff.Compare(mod, rel, diff.Options{}); len(r.Diffs) > 0 {
				for _, d := range r.Diffs {
					if !strings.HasPrefix(d, "# count") && !strings.HasPrefix(d, "+ ") {
						t.Errorf("relocated BTF lacks or changes a type of the module: %s", d)
						break
					}
				}
			}
			relTheirs, err := Relocate(refSplit, base)
			if err != nil {
				t.Fatalf("relocating pahole's .BTF: %v", err)
			}
			if !bytes.Equal(relTheirs.Marshal(nil), rel.Marshal(nil)) {
				t.Errorf("relocating pahole's .BTF gives other bytes than relocating ours")
			}
		})
	}
}

// TestRelocateErrors: libbpf's refusals.
func TestRelocateErrors(t *testing.T) {
	full := btf.NewSpec()
	i := full.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	full.Add("s", btf.KindStruct, 1, false, 4, full.AddString("a"), uint32(i), 0)
	full.Add("s", btf.KindStruct, 1, false, 4, full.AddString("b"), uint32(i), 0)
	full.Add("u", btf.KindStruct, 1, false, 4, full.AddString("a"), uint32(i), 0)

	// A distilled struct "s" of size 4: two base candidates of that size.
	dist := btf.NewSpec()
	ds := dist.Add("s", btf.KindStruct, 0, false, 4)
	split := btf.NewSplitSpec(dist)
	split.Add("", btf.KindPtr, 0, false, uint32(ds))
	if _, err := Relocate(split, full); err == nil || !strings.Contains(err.Error(), "several candidates") {
		t.Errorf("ambiguous struct: %v", err)
	}

	// A distilled type with no counterpart.
	dist2 := btf.NewSpec()
	dm := dist2.Add("missing", btf.KindStruct, 0, false, 8)
	split2 := btf.NewSplitSpec(dist2)
	split2.Add("", btf.KindPtr, 0, false, uint32(dm))
	if _, err := Relocate(split2, full); err == nil || !strings.Contains(err.Error(), "matches no type") {
		t.Errorf("missing type: %v", err)
	}

	// An embedded struct must match in size; a pointed-to one need not.
	dist3 := btf.NewSpec()
	du := dist3.Add("u", btf.KindStruct, 0, false, 8)
	split3 := btf.NewSplitSpec(dist3)
	split3.Add("", btf.KindPtr, 0, false, uint32(du))
	if _, err := Relocate(split3, full); err != nil {
		t.Errorf("pointer to a struct of another size: %v", err)
	}
	split3.Add("outer", btf.KindStruct, 1, false, 8, split3.AddString("x"), uint32(du), 0)
	if _, err := Relocate(split3, full); err == nil {
		t.Errorf("embedded struct of another size relocated")
	}

	// Not split, and a distilled base that is not one.
	if _, err := Relocate(full, full); err == nil {
		t.Errorf("non-split BTF relocated")
	}
	if _, _, err := Distill(full); err == nil {
		t.Errorf("non-split BTF distilled")
	}
	bad := btf.NewSplitSpec(full)
	bad.Add("", btf.KindPtr, 0, false, uint32(i))
	if _, err := Relocate(bad, dist); err == nil {
		t.Errorf("a base with STRUCT members accepted as a distilled base")
	}
}

// TestDistillRefusesFuncFromBase: split BTF that refers to a base FUNC
// (not describable in a distilled base) is an error, as in libbpf.
func TestDistillRefusesFuncFromBase(t *testing.T) {
	base := btf.NewSpec()
	p := base.Add("", btf.KindFuncProto, 0, false, 0)
	f := base.Add("f", btf.KindFunc, 0, false, uint32(p))
	split := btf.NewSplitSpec(base)
	split.Add("tag", btf.KindDeclTag, 0, false, uint32(f), ^uint32(0))
	if _, _, err := Distill(split); err == nil {
		t.Error("a reference to a base FUNC was distilled")
	}
}
