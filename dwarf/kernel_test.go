package dwarf

import (
	"github.com/btfkit/btfkit/internal/refdata"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// kernelInputs returns the Debian kernel debug inputs: the vmlinux and the
// modules directory. They come from env VMLINUX and MODULES, or from
// /work/shared/tools/kernel-inputs when the debug package is installed.
// Without them the test is skipped visibly, or fails when CI=true.
func kernelInputs(t testing.TB) (vmlinux, modules string) {
	t.Helper()
	kernelPaths()
	if _, err := os.Stat(kernelVmlinux); kernelVmlinux == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("kernel inputs missing (VMLINUX=%q); CI installs them with kernel-inputs", kernelVmlinux)
		}
		t.Skip("SKIP: kernel inputs not installed (set VMLINUX/MODULES or install linux-image-6.1.0-57-cloud-amd64-dbg)")
	}
	return kernelVmlinux, kernelModules
}

// kernelPaths finds the kernel inputs once; "" when they are absent.
func kernelPaths() (vmlinux, modules string) {
	kernelOnce.Do(func() {
		kv, km := os.Getenv("VMLINUX"), os.Getenv("MODULES")
		if kv == "" {
			if exec.Command("dpkg", "-s", "linux-image-6.1.0-57-cloud-amd64-dbg").Run() == nil {
				tool := os.Getenv("KERNEL_INPUTS")
				if tool == "" {
					tool = refdata.Dir + "/tools/kernel-inputs"
				}
				out, err := exec.Command(tool).Output()
				if err == nil {
					for _, l := range strings.Split(string(out), "\n") {
						if v, ok := strings.CutPrefix(l, "VMLINUX="); ok {
							kv = v
						}
						if v, ok := strings.CutPrefix(l, "MODULES="); ok {
							km = v
						}
					}
				}
			}
		}
		if _, err := os.Stat(kv); err != nil {
			kv = ""
		}
		kernelVmlinux, kernelModules = kv, km
	})
	return kernelVmlinux, kernelModules
}

var (
	kernelOnce                   sync.Once
	kernelVmlinux, kernelModules string
)

// kernelModuleSample returns n modules of the Debian kernel, spread evenly
// over the sorted list of all of them.
func kernelModuleSample(t testing.TB, n int) []string {
	_, dir := kernelInputs(t)
	var all []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".ko") {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	if len(all) < n {
		t.Fatalf("only %d modules under %s", len(all), dir)
	}
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}
