package dedup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testc/libbpfdedup"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestModulesAgainstBase: real module BTF, split against the vmlinux BTF
// (pahole 1.32's output, kept in the reference data), deduplicated again
// against the same base: byte-identical to libbpf's btf__dedup, never
// larger than the input, and two copies of a module merge into one.
func TestModulesAgainstBase(t *testing.T) {
	basePath, data := vmlinux132(t)
	tarball := testenv.Reference(t, "debian-6.1.0-57-cloud/modules-pahole-1.32.tar.xz")
	mods := []string{"xfs", "btrfs", "kvm", "sctp", "nf_tables"}
	dir := t.TempDir()
	args := []string{"-xJf", tarball, "-C", dir}
	for _, m := range mods {
		args = append(args, "btf/"+m+".btf")
	}
	if out, err := exec.Command("tar", args...).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	base := mustParse(t, data, nil)
	for _, name := range mods {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, "btf", name+".btf")
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			in := mustParse(t, raw, base)
			keep, _, err := Dedup(in, Options{KeepDuplicateVars: true})
			if err != nil {
				t.Fatal(err)
			}
			lib := libbpfdedup.Dedup(t, p, basePath)
			if got := keep.Marshal(nil); !bytes.Equal(got, lib) {
				t.Errorf("differs from libbpf: ours %d bytes, libbpf %d", len(got), len(lib))
			}
			if keep.NumTypes() > in.NumTypes() {
				t.Errorf("grew: %d -> %d types", in.NumTypes(), keep.NumTypes())
			}
			two := append(append([]byte(nil), raw...), raw...)
			out := dedupFiles(t, []string{writeTemp(t, "2x.btf", two)}, base, 2, Options{})
			one, _, err := Dedup(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if out.NumTypes() != one.NumTypes() {
				t.Errorf("two copies: %d types, one copy: %d", out.NumTypes(), one.NumTypes())
			}
			if r := diff.Compare(out, one, diff.Options{}); !r.Equal() {
				t.Errorf("two copies differ from one: %v", r.Diffs[:min(5, len(r.Diffs))])
			}
			t.Logf("%s: %d types in, %d out (libbpf %d)", name, in.NumTypes(), one.NumTypes(), mustParse(t, lib, base).NumTypes())
			_ = btf.KindFunc
		})
	}
}
