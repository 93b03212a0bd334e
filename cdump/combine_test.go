package cdump

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestCombineOneModule: a combination of one module is that module, so its
// header must be bpftool's for the module with its base.
func TestCombineOneModule(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and kernel-size inputs")
	}
	testc.Require(t, "bpftool")
	vmlinux, _ := testenv.KernelInputs(t)
	mod := testenv.Module(t, "vxlan")
	base := loadBase(t, vmlinux)
	s, err := btf.LoadFile(mod, base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Combine(base, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Bytes(c, Options{PointerSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	sameHeader(t, "vxlan combined", got, bpftoolC(t, mod, vmlinux))
}

// TestCombineSeveral: vmlinux and three modules make one header that starts
// with vmlinux's own header (base types once, in bpftool's order), holds
// each module's types after it, and compiles for BPF.
func TestCombineSeveral(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: compiles and kernel-size inputs")
	}
	testc.Require(t, "bpftool", "clang")
	vmlinux, _ := testenv.KernelInputs(t)
	names := []string{"xfs", "btrfs", "kvm"}
	base := loadBase(t, vmlinux)
	var splits []*btf.Spec
	for _, n := range names {
		s, err := btf.LoadFile(testenv.Module(t, n), base)
		if err != nil {
			t.Fatal(err)
		}
		splits = append(splits, s)
	}
	c, err := Combine(base, splits...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Bytes(c, Options{PointerSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	want := bpftoolC(t, vmlinux, "")
	prefix := want[:len(want)-len(epilogue)]
	if !bytes.HasPrefix(got, prefix) || !bytes.HasSuffix(got, []byte(epilogue)) {
		t.Fatalf("combined header does not start with vmlinux's header and end with the epilogue")
	}
	for _, s := range []string{"\nstruct xfs_mount {\n", "\nstruct btrfs_fs_info {\n", "\nstruct kvm_vcpu {\n"} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("combined header lacks %q", strings.TrimSpace(s))
		}
	}
	dir := t.TempDir()
	h := filepath.Join(dir, "all.h")
	os.WriteFile(h, got, 0o644)
	testc.Run(t, "clang", "-target", "bpf", "-fsyntax-only", "-Werror", "-x", "c", h)
}

// TestCombineRejectsOtherBase: every split must extend the given base.
func TestCombineRejectsOtherBase(t *testing.T) {
	a, b := smallSpec("a"), smallSpec("b")
	if _, err := Combine(a, btf.NewSplitSpec(b)); err == nil {
		t.Error("Combine accepted a split of another base")
	}
}
