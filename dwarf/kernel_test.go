package dwarf

import (
	"github.com/btfkit/btfkit/internal/refdata"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
	kernelVmlinux, kernelModules, _ = refdata.KernelInputs()
	return kernelVmlinux, kernelModules
}

var kernelVmlinux, kernelModules string

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
