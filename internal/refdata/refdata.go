// Package refdata finds the project's shared reference directory (shared/,
// beside the repository: reference outputs, measured figures and the
// kernel-inputs tool) for tests and scripts, wherever the repository is
// cloned. It knows nothing about what the files contain.
package refdata

import (
	"os"
	"path/filepath"
	"runtime"
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
