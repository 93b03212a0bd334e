package kmod_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/btfkit/btfkit/kmod"
)

// Find lists the modules of a directory tree, sorted by path, each with
// its name.
func ExampleFind() {
	dir, _ := os.MkdirTemp("", "kmod")
	defer os.RemoveAll(dir)
	for _, f := range []string{"kernel/fs/xfs/xfs.ko.xz", "kernel/net/ipv6/ipv6.ko", "modules.dep"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	mods, err := kmod.Find([]string{dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range mods {
		rel, _ := filepath.Rel(dir, m.Path)
		fmt.Println(m.Name, rel)
	}
	// Output:
	// xfs kernel/fs/xfs/xfs.ko.xz
	// ipv6 kernel/net/ipv6/ipv6.ko
}

func ExampleName() {
	fmt.Println(kmod.Name("/lib/modules/6.1.0/kernel/arch/x86/kvm/kvm-intel.ko.zst"))
	fmt.Println(kmod.IsModule("vmlinux"), kmod.IsCompressed("kvm-intel.ko.zst"))
	// Output:
	// kvm-intel
	// false true
}
