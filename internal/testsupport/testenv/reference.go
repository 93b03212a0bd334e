package testenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// ReferenceDir is where the reference outputs live, relative to Root.
const ReferenceDir = "testdata/reference"

// Reference returns the path of a reference output, named by its path
// under testdata/reference without a compression suffix, such as
// "debian-6.1.0-57-cloud/embedded.btf". A file stored as NAME.xz is
// unpacked with xz into a temporary directory of t (removed when t ends)
// at the same relative path; one stored as it is (the .tar.xz tarballs,
// small text) is returned in place. A name the repository lacks fails the
// test: the references are part of the repository.
func Reference(t testing.TB, name string) string {
	t.Helper()
	stored := filepath.Join(Root(t), ReferenceDir, name)
	if _, err := os.Stat(stored); err == nil {
		return stored
	}
	if _, err := os.Stat(stored + ".xz"); err != nil {
		t.Fatalf("testenv: no reference %s (neither %s nor .xz of it)", name, stored)
	}
	if _, err := exec.LookPath("xz"); err != nil {
		SkipOrFail(t, "xz not found on PATH, so reference %s cannot be unpacked; run scripts/install-test-deps", name)
	}
	out := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	var msg bytes.Buffer
	cmd := exec.Command("xz", "-dc", stored+".xz")
	cmd.Stdout, cmd.Stderr = f, &msg
	err = cmd.Run()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("testenv: unpacking %s.xz: %v %s", stored, err, msg.Bytes())
	}
	return out
}

// ReferenceNames returns the names (as Reference takes them, sorted) of
// the reference outputs matching pattern, a filepath.Match pattern such as
// "*/*.btf".
func ReferenceNames(t testing.TB, pattern string) []string {
	t.Helper()
	dir := filepath.Join(Root(t), ReferenceDir)
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".xz")
		if strings.HasSuffix(rel, ".tar.xz") {
			name = filepath.ToSlash(rel)
		}
		if ok, _ := filepath.Match(pattern, name); ok {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}
