package testenv

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

const modulePath = "github.com/btfkit/btfkit"

var root struct {
	sync.Once
	dir string
	err error
}

// Root returns the repository's top directory: the nearest directory
// above the working directory (a test's package directory) whose go.mod
// declares btfkit's module.
func Root(t testing.TB) string {
	t.Helper()
	r := &root
	r.Do(func() { r.dir, r.err = findRoot() })
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.dir
}

func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(b, []byte("module "+modulePath+"\n")) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("testenv: no go.mod of " + modulePath + " above the working directory")
		}
		dir = up
	}
}
