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

// built is a btfkit binary built for the test process.
type built struct {
	sync.Once
	dir  string
	path string
	err  error
}

var binary struct {
	built
	main bool // Main runs the tests, so the binaries are removed afterwards
	race built
}

// Main runs a test package's tests and then removes the btfkit binary
// Btfkit built, if any; a package whose tests call Btfkit has
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	binary.main = true
	code := m.Run()
	for _, b := range []*built{&binary.built, &binary.race} {
		if b.dir != "" {
			os.RemoveAll(b.dir)
		}
	}
	os.Exit(code)
}

// Btfkit returns the path of a btfkit binary built from this tree, built
// once per test process (go build of cmd/btfkit into a temporary
// directory) and shared by every command test of the process. The
// package's TestMain must be Main, which removes it afterwards.
func Btfkit(t testing.TB) string {
	t.Helper()
	return build(t, &binary.built)
}

// BtfkitRace is Btfkit built with the race detector (go build -race),
// for command tests that run under it and want the commands checked too.
func BtfkitRace(t testing.TB) string {
	t.Helper()
	return build(t, &binary.race, "-race")
}

func build(t testing.TB, b *built, flags ...string) string {
	t.Helper()
	if !binary.main {
		t.Fatal("testenv.Btfkit: the package's TestMain must call testenv.Main, which removes the binary afterwards")
	}
	b.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "btfkit-test-bin-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "btfkit")
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		args := append(append([]string{"build"}, flags...), "-o", b.path, modulePath+"/cmd/btfkit")
		out, err := exec.Command(goTool, args...).CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}
