// Package refdata finds the project's shared reference directory (shared/,
// beside the repository: reference outputs, measured figures and the
// kernel-inputs tool) and the Debian kernel inputs for tests, wherever the
// repository is cloned. It knows nothing about what the files contain.
package refdata

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Dir is the shared directory: $BTFKIT_SHARED when set, else the shared/
// beside the repository's root, else /work/shared.
var Dir = find()

func find() string {
	if d := os.Getenv("BTFKIT_SHARED"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if ok {
		// file is <repo>/internal/refdata/refdata.go
		d := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return filepath.Clean(d)
		}
	}
	return "/work/shared"
}

// KernelPackage is the Debian debug package the large tests run on.
const KernelPackage = "linux-image-6.1.0-57-cloud-amd64-dbg"

var kernel struct {
	sync.Once
	vmlinux, modules string
	err              error
}

// KernelInputs returns the Debian debug vmlinux and its module directory:
// $VMLINUX and $MODULES when set, else what shared/tools/kernel-inputs
// prints ($BTFKIT_KERNEL_INPUTS names another tool). The tool is asked only
// when KernelPackage is installed, so a test never starts a 283 MB
// download; scripts/install-test-deps installs it. The answer is computed
// once per process. err says why the inputs are missing; both paths are
// checked to exist.
func KernelInputs() (vmlinux, modules string, err error) {
	k := &kernel
	k.Do(func() {
		k.vmlinux, k.modules = os.Getenv("VMLINUX"), os.Getenv("MODULES")
		if k.vmlinux == "" || k.modules == "" {
			if exec.Command("dpkg", "-s", KernelPackage).Run() != nil {
				k.err = fmt.Errorf("%s is not installed (scripts/install-test-deps installs it)", KernelPackage)
				return
			}
			tool := os.Getenv("BTFKIT_KERNEL_INPUTS")
			if tool == "" {
				tool = filepath.Join(Dir, "tools", "kernel-inputs")
			}
			out, err := exec.Command(tool).Output()
			if err != nil {
				k.err = fmt.Errorf("%s: %v", tool, err)
				return
			}
			for _, f := range strings.Fields(string(out)) {
				if v, ok := strings.CutPrefix(f, "VMLINUX="); ok {
					k.vmlinux = v
				} else if v, ok := strings.CutPrefix(f, "MODULES="); ok {
					k.modules = v
				}
			}
		}
		for _, p := range []string{k.vmlinux, k.modules} {
			if _, err := os.Stat(p); p == "" || err != nil {
				k.err = fmt.Errorf("kernel input %q not found", p)
				return
			}
		}
	})
	return k.vmlinux, k.modules, k.err
}
