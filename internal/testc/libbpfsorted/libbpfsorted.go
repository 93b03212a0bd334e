// Package libbpfsorted builds and runs a small C harness around libbpf's
// btf__find_by_name_kind, linked with -Wl,--wrap=strcmp to count the
// string comparisons a lookup makes, so tests can tell whether libbpf
// found a BTF sorted by name (it then searches by bisection). Sorted-BTF
// detection came with libbpf v1.8, which no Debian package ships: the
// harness links the static libbpf under $BTFKIT_LIBBPF (a directory with
// libbpf.a and include/bpf/btf.h, such as a libbpf v1.8 build's output).
// The C source is c/harness.c.
package libbpfsorted

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	once   sync.Once
	binary string
	bErr   error
	bOut   []byte
)

// Dir is the libbpf directory the harness links ($BTFKIT_LIBBPF), "" when
// none is given.
func Dir() string { return os.Getenv("BTFKIT_LIBBPF") }

// Harness compiles the harness once per test binary and returns its path.
// It skips the test when $BTFKIT_LIBBPF is not set: CI cannot avoid that
// skip, since no package it installs has libbpf v1.8.
func Harness(t testing.TB) string {
	t.Helper()
	dir := Dir()
	if dir == "" {
		t.Skip("BTFKIT_LIBBPF is not set: no libbpf v1.8 (libbpf.a and include/) to ask whether it finds the BTF sorted; Debian's libbpf 1.1 predates sorted-BTF detection")
	}
	once.Do(func() {
		tmp, err := os.MkdirTemp("", "btfkit-libbpfsorted-")
		if err != nil {
			bErr = err
			return
		}
		_, file, _, _ := runtime.Caller(0)
		binary = filepath.Join(tmp, "harness")
		cmd := exec.Command("gcc", "-O2", "-Wall", "-I", filepath.Join(dir, "include"),
			"-o", binary, filepath.Join(filepath.Dir(file), "c", "harness.c"),
			"-Wl,--wrap=strcmp", filepath.Join(dir, "libbpf.a"), "-lelf", "-lz")
		bOut, bErr = cmd.CombinedOutput()
	})
	if bErr != nil {
		t.Fatalf("cannot build the libbpf harness against %s: %v\n%s", dir, bErr, bOut)
	}
	return binary
}

// Lookup is one btf__find_by_name_kind call: the ID found (negative:
// an error) and how many strcmp calls it made.
type Lookup struct {
	Name        string
	ID          int
	Comparisons int
}

// Find asks libbpf for each name of the given kind in file (split against
// base when base is not "").
func Find(t testing.TB, file, base string, kind int, names ...string) []Lookup {
	t.Helper()
	args := []string{}
	if base != "" {
		args = append(args, "-b", base)
	}
	args = append(args, file, fmt.Sprint(kind))
	args = append(args, names...)
	cmd := exec.Command(Harness(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("libbpf harness %v: %v\n%s", args, err, stderr.String())
	}
	var res []Lookup
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var l Lookup
		if _, err := fmt.Sscan(sc.Text(), &l.Name, &l.ID, &l.Comparisons); err != nil {
			t.Fatalf("libbpf harness: %q: %v", sc.Text(), err)
		}
		res = append(res, l)
	}
	if len(res) != len(names) {
		t.Fatalf("libbpf harness: %d answers for %d names:\n%s", len(res), len(names), strings.TrimSpace(string(out)))
	}
	return res
}
