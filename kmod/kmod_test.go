package kmod

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"a/b/xfs.ko": "xfs", "kvm-intel.ko.xz": "kvm-intel", "x.ko.zst": "x",
		"y.ko.gz": "y", "vmlinux": "vmlinux", ".ko": ".ko", "z.ko.bz2": "z.ko.bz2",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string][2]bool{
		"a.ko": {true, false}, "a.ko.xz": {true, true}, "a.ko.zst": {true, true},
		"a.ko.gz": {true, true}, "a.o": {false, false}, ".ko.xz": {false, false},
	} {
		if got := [2]bool{IsModule(in), IsCompressed(in)}; got != want {
			t.Errorf("IsModule, IsCompressed(%q) = %v, want %v", in, got, want)
		}
	}
}

// tree makes the files under a temporary directory and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFind(t *testing.T) {
	dir := tree(t, "kernel/fs/xfs.ko.xz", "kernel/arch/kvm.ko", "kernel/fs/readme.txt",
		"kernel/net/ipv6.ko.zst", "modules.dep")
	other := tree(t, "vmlinux")
	mods, err := Find([]string{filepath.Join(other, "vmlinux"), dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range mods {
		got = append(got, m.Name+"="+strings.TrimPrefix(strings.TrimPrefix(m.Path, dir), other))
	}
	want := "vmlinux=/vmlinux kvm=/kernel/arch/kvm.ko xfs=/kernel/fs/xfs.ko.xz ipv6=/kernel/net/ipv6.ko.zst"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("Find:\n got %s\nwant %s", g, want)
	}

	dup := tree(t, "a/x.ko", "b/x.ko.gz")
	if _, err := Find([]string{dup}); err == nil || !strings.Contains(err.Error(), "two modules named x") {
		t.Errorf("two modules of one name: err %v", err)
	}
	empty := tree(t, "README")
	if _, err := Find([]string{empty}); err == nil || !strings.Contains(err.Error(), empty+": no kernel modules") {
		t.Errorf("a directory without modules: err %v", err)
	}
	if _, err := Find([]string{filepath.Join(empty, "missing")}); !os.IsNotExist(err) {
		t.Errorf("a missing input: err %v", err)
	}
}

// TestFindAll: two modules of one name are an error for Find (their
// outputs would collide) and both kept, in path order, by FindAll.
func TestFindAll(t *testing.T) {
	dir := tree(t, "kernel/b/dup.ko", "kernel/a/dup.ko.gz", "kernel/c/other.ko")
	if _, err := Find([]string{dir}); err == nil || !strings.Contains(err.Error(), "two modules named dup") {
		t.Fatalf("Find: %v", err)
	}
	mods, err := FindAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range mods {
		got = append(got, m.Name+"="+strings.TrimPrefix(m.Path, dir))
	}
	if want := "dup=/kernel/a/dup.ko.gz dup=/kernel/b/dup.ko other=/kernel/c/other.ko"; strings.Join(got, " ") != want {
		t.Fatalf("FindAll: %s, want %s", strings.Join(got, " "), want)
	}
}
