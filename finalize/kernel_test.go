package finalize

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
)

// TestKernelBuild runs Finalize on what scripts/finalize-oracle kept of a
// Linux 7.x build ($BTFKIT_FINALIZE_KEEP, e.g. /var/tmp/linux72-keep: each
// BTF step's input ELF NAME.elf and pahole output NAME.BTF.1, and the
// files the build embedded the result in, final/) and compares with the
// embedded sections byte for byte: .BTF and .BTF_ids of vmlinux, .BTF,
// .BTF.base and .BTF_ids of each module. Skipped without the variable.
func TestKernelBuild(t *testing.T) {
	keep := os.Getenv("BTFKIT_FINALIZE_KEEP")
	if keep == "" {
		t.Skip("BTFKIT_FINALIZE_KEEP is not set (scripts/finalize-oracle makes the directory)")
	}
	vmlinux := filepath.Join(keep, "final", "vmlinux")
	rawBase, err := elfx.ReadSection(vmlinux, ".BTF")
	if err != nil {
		t.Fatal(err)
	}
	base, err := btf.Parse(rawBase, nil)
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := filepath.Glob(filepath.Join(keep, "*.BTF.1"))
	if len(steps) == 0 {
		t.Fatalf("no *.BTF.1 in %s", keep)
	}
	for _, step := range steps {
		name := strings.TrimSuffix(filepath.Base(step), ".BTF.1")
		t.Run(name, func(t *testing.T) {
			final := filepath.Join(keep, "final", name)
			var b *btf.Spec
			if name == ".tmp_vmlinux1" {
				final = vmlinux
			} else {
				b = base
			}
			raw, err := os.ReadFile(step)
			if err != nil {
				t.Fatal(err)
			}
			in, err := btf.Parse(raw, b)
			if err != nil {
				t.Fatal(err)
			}
			ids, err := ReadIDs(filepath.Join(keep, name+".elf"))
			if err != nil {
				t.Fatal(err)
			}
			wantBase, _ := elfx.ReadSection(final, ".BTF.base")
			r, err := Finalize(in, ids, Options{DistillBase: wantBase != nil})
			if err != nil {
				t.Fatal(err)
			}
			check := func(sec string, got []byte) {
				want, err := elfx.ReadSection(final, sec)
				if err != nil {
					t.Fatalf("%s: %v", sec, err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs: %d bytes, the build's %d", sec, len(got), len(want))
				}
			}
			check(".BTF", r.BTF.Marshal(nil))
			if r.IDs != nil {
				check(".BTF_ids", r.IDs)
			}
			if wantBase != nil {
				check(".BTF.base", r.Base.Marshal(nil))
			}
			t.Logf("%d types, %d _impl twins, %d prototypes trimmed, %d warnings", r.BTF.NumTypes(), len(r.Twins), len(r.Rewritten), len(r.Warnings))
		})
	}
}
