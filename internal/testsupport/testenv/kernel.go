package testenv

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// KernelPackage is the Debian debug package whose vmlinux and modules the
// large tests read; scripts/kernel-inputs installs it.
const KernelPackage = "linux-image-6.1.0-57-cloud-amd64-dbg"

var kernel struct {
	sync.Once
	vmlinux, modules string
	err              error
}

// Kernel returns the Debian debug vmlinux and its module directory:
// $VMLINUX and $MODULES where set, else what `scripts/kernel-inputs -n`
// prints, which never installs (a test does not start a 283 MB download;
// scripts/install-test-deps does). err says why they are missing. The
// answer is found once per process. Tests call KernelInputs; Kernel is for
// callers without a testing.TB.
func Kernel() (vmlinux, modules string, err error) {
	k := &kernel
	k.Do(func() { k.vmlinux, k.modules, k.err = findKernel() })
	return k.vmlinux, k.modules, k.err
}

func findKernel() (vmlinux, modules string, err error) {
	vmlinux, modules = os.Getenv("VMLINUX"), os.Getenv("MODULES")
	if vmlinux == "" || modules == "" {
		dir, err := findRoot()
		if err != nil {
			return "", "", err
		}
		script := filepath.Join(dir, "scripts", "kernel-inputs")
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(script, "-n")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return "", "", fmt.Errorf("%s -n: %v: %s", script, err, strings.TrimSpace(stderr.String()))
		}
		for _, f := range strings.Fields(stdout.String()) {
			if v, ok := strings.CutPrefix(f, "VMLINUX="); ok && vmlinux == "" {
				vmlinux = v
			} else if v, ok := strings.CutPrefix(f, "MODULES="); ok && modules == "" {
				modules = v
			}
		}
	}
	if st, err := os.Stat(vmlinux); vmlinux == "" || err != nil || !st.Mode().IsRegular() {
		return "", "", fmt.Errorf("the kernel input vmlinux %q is not a file", vmlinux)
	}
	if st, err := os.Stat(modules); modules == "" || err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("the kernel input module directory %q is not a directory", modules)
	}
	return vmlinux, modules, nil
}

// KernelInputs returns the Debian debug vmlinux and its module directory
// (see Kernel), or stops the test through SkipOrFail when they are not
// installed.
func KernelInputs(t testing.TB) (vmlinux, modules string) {
	t.Helper()
	vmlinux, modules, err := Kernel()
	if err != nil {
		SkipOrFail(t, "the Debian kernel inputs (%s) are not available: %v", KernelPackage, err)
	}
	return vmlinux, modules
}

var moduleList struct {
	sync.Once
	paths []string
	err   error
}

// Modules returns the paths of every .ko file under the Debian module
// directory, sorted (1,121 of them), or stops the test as KernelInputs
// does.
func Modules(t testing.TB) []string {
	t.Helper()
	_, dir := KernelInputs(t)
	m := &moduleList
	m.Do(func() {
		m.err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ko") {
				m.paths = append(m.paths, p)
			}
			return err
		})
		sort.Strings(m.paths)
		if m.err == nil && len(m.paths) == 0 {
			m.err = errors.New("no .ko files under " + dir)
		}
	})
	if m.err != nil {
		t.Fatalf("testenv: %v", m.err)
	}
	return m.paths
}

// Module returns the path of the Debian module NAME.ko; a name the
// package lacks fails the test.
func Module(t testing.TB, name string) string {
	t.Helper()
	for _, p := range Modules(t) {
		if filepath.Base(p) == name+".ko" {
			return p
		}
	}
	t.Fatalf("testenv: module %s.ko is not in %s", name, KernelPackage)
	return ""
}

// ModuleSample returns n of the Debian modules spread evenly over the
// sorted list of all of them (all of them when n is not below their
// number).
func ModuleSample(t testing.TB, n int) []string {
	t.Helper()
	all := Modules(t)
	if n >= len(all) {
		return all
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// Kernel612 is the Debian 6.12.111 cloud debug kernel whose vmlinux
// scripts/kernel-inputs fetches besides the 6.1 inputs (only the vmlinux
// is kept, under $BTFKIT_CACHE or /var/cache/btfkit).
const Kernel612 = "linux-image-6.12.111+deb12-cloud-amd64-dbg"

// Vmlinux612 returns the Debian 6.12.111 debug vmlinux: $VMLINUX612 where
// set, else the file scripts/kernel-inputs keeps. When it is missing the
// test fails under CI=true and logs a SKIP line otherwise, returning "" so
// that the 6.1 part of a test still runs.
func Vmlinux612(t testing.TB) string {
	t.Helper()
	p := os.Getenv("VMLINUX612")
	if p == "" {
		cache := os.Getenv("BTFKIT_CACHE")
		if cache == "" {
			cache = "/var/cache/btfkit"
		}
		p = filepath.Join(cache, "vmlinux-6.12.111+deb12-cloud-amd64")
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		SkipPartOrFail(t, "the Debian 6.12 debug vmlinux (%s) is not there (%s); scripts/kernel-inputs fetches it", Kernel612, p)
		return ""
	}
	return p
}
