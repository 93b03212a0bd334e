// Package libbpfdedup builds and runs a small C harness around libbpf's
// btf__dedup (from the system's libbpf-dev) so tests can compare btfkit's
// dedup with the reference implementation on the same input. The C source
// is c/harness.c: in a subdirectory, because a Go package directory may not
// hold C files without cgo.
package libbpfdedup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

var (
	once   sync.Once
	binary string
	bErr   error
	bOut   []byte
)

func srcDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Harness compiles the harness once per test binary and returns its path.
// It stops the test through testenv.SkipOrFail when gcc or libbpf-dev is
// missing (a failure under CI, which installs them).
func Harness(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		dir, err := os.MkdirTemp("", "btfkit-libbpfdedup-")
		if err != nil {
			bErr = err
			return
		}
		binary = filepath.Join(dir, "harness")
		cmd := exec.Command("gcc", "-O2", "-Wall", "-o", binary, filepath.Join(srcDir(), "c", "harness.c"), "-lbpf")
		bOut, bErr = cmd.CombinedOutput()
	})
	if bErr != nil {
		testenv.SkipOrFail(t, "cannot build the libbpf harness (gcc and libbpf-dev needed): %v\n%s", bErr, bOut)
	}
	return binary
}

// Dedup runs libbpf's btf__dedup over the raw BTF (or archive of raw BTF
// blobs) in file in, split against the raw BTF base when base is not "",
// and returns the raw output.
func Dedup(t testing.TB, in, base string) []byte {
	t.Helper()
	return run(t, in, base, false)
}

// DedupStandaloneOnto is Dedup for members that are standalone BTF, to be
// appended to a split BTF against base (per-unit fragments of a module).
func DedupStandaloneOnto(t testing.TB, in, base string) []byte {
	t.Helper()
	return run(t, in, base, true)
}

func run(t testing.TB, in, base string, standalone bool) []byte {
	t.Helper()
	h := Harness(t)
	out := filepath.Join(t.TempDir(), "libbpf-dedup.btf")
	args := []string{"-o", out}
	if base != "" {
		args = append(args, "-b", base)
	}
	if standalone {
		args = append(args, "-s")
	}
	args = append(args, in)
	cmd := exec.Command(h, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("libbpf harness %v: %v\n%s", args, err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", bytes.TrimSpace(stderr.Bytes()))
	return data
}
