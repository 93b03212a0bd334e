package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var binary struct {
	sync.Once
	main bool // Main runs the tests, so the binary is removed afterwards
	dir  string
	path string
	err  error
}

// Main runs a test package's tests and then removes the btfkit binary
// Btfkit built, if any; a package whose tests call Btfkit has
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	binary.main = true
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// Btfkit returns the path of a btfkit binary built from this tree, built
// once per test process (go build of cmd/btfkit into a temporary
// directory) and shared by every command test of the process. The
// package's TestMain must be Main, which removes it afterwards.
func Btfkit(t testing.TB) string {
	t.Helper()
	b := &binary
	if !b.main {
		t.Fatal("testenv.Btfkit: the package's TestMain must call testenv.Main, which removes the binary afterwards")
	}
	b.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "btfkit-test-bin-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "btfkit")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		out, err := exec.Command(goTool, "build", "-o", b.path, modulePath+"/cmd/btfkit").CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build %s/cmd/btfkit: %v\n%s", modulePath, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}
