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

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// DefaultDir is where scripts/libbpf-static installs the static libbpf.
const DefaultDir = "/var/tmp/btfkit-libbpf"

// MinMajor and MinMinor are the first libbpf release that detects sorted
// BTF: 1.7.0.
const (
	MinMajor = 1
	MinMinor = 7
)

// built is a harness built for one test: its path and the libbpf version
// it linked.
type built struct {
	path    string
	version [2]int
}

// harnesses maps each test (testing.TB) that asked to its built harness,
// which lives in the test's TempDir and goes with it.
var harnesses sync.Map

// Dir is the libbpf directory the harness links: $BTFKIT_LIBBPF when set,
// else DefaultDir.
func Dir() string {
	if d := os.Getenv("BTFKIT_LIBBPF"); d != "" {
		return d
	}
	return DefaultDir
}

// Harness compiles the harness once per test (into its TempDir) and
// returns its path. Without a libbpf in Dir the test skips visibly, or
// fails under CI=true (testenv.SkipOrFail), where
// scripts/install-test-deps builds it. A libbpf older than 1.7 fails the
// test: it could not say anything.
func Harness(t testing.TB) string {
	t.Helper()
	return harness(t).path
}

func harness(t testing.TB) built {
	t.Helper()
	if b, ok := harnesses.Load(t); ok {
		return b.(built)
	}
	dir := Dir()
	for _, f := range []string{"libbpf.a", "include/bpf/btf.h"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			testenv.SkipOrFail(t, "no static libbpf 1.7+ to ask whether it finds the BTF sorted (%v): scripts/libbpf-static builds one into %s, or set BTFKIT_LIBBPF", err, DefaultDir)
		}
	}
	_, file, _, _ := runtime.Caller(0)
	b := built{path: filepath.Join(t.TempDir(), "harness")}
	cmd := exec.Command("gcc", "-O2", "-Wall", "-I", filepath.Join(dir, "include"),
		"-o", b.path, filepath.Join(filepath.Dir(file), "c", "harness.c"),
		"-Wl,--wrap=strcmp", filepath.Join(dir, "libbpf.a"), "-lelf", "-lz")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cannot build the libbpf harness against %s: %v\n%s", dir, err, out)
	}
	out, err := exec.Command(b.path, "-V").Output()
	if err == nil {
		_, err = fmt.Sscan(string(out), &b.version[0], &b.version[1])
	}
	if err != nil {
		t.Fatalf("libbpf harness -V: %v", err)
	}
	if b.version[0] < MinMajor || b.version[0] == MinMajor && b.version[1] < MinMinor {
		t.Fatalf("%s holds libbpf %d.%d; sorted-BTF detection needs %d.%d or newer", dir, b.version[0], b.version[1], MinMajor, MinMinor)
	}
	harnesses.Store(t, b)
	t.Cleanup(func() { harnesses.Delete(t) })
	return b
}

// Version is the libbpf version the harness linked, as libbpf reports it
// (libbpf_major_version, libbpf_minor_version).
func Version(t testing.TB) (major, minor int) {
	t.Helper()
	b := harness(t)
	return b.version[0], b.version[1]
}

// Query says what to ask libbpf.
type Query struct {
	File string // the BTF to read
	Base string // its base BTF when File is split BTF, else ""
	Kind int    // the kind of the types sought
	// Alias, when not 0, is an anonymous type of Kind among File's own
	// types, given each sought name in turn (see Lookup.Aliased).
	Alias int
}

// Lookup is one btf__find_by_name_kind call: the ID found (negative: an
// error) and how many strcmp calls it made; Aliased is the ID found for
// the same name once Query.Alias carries that name too (0 without Alias):
// ID when libbpf searched by bisection, Alias when it scanned and Alias
// comes before ID.
type Lookup struct {
	Name        string
	ID          int
	Comparisons int
	Aliased     int
}

// Find asks libbpf for each name in the BTF q names.
func Find(t testing.TB, q Query, names ...string) []Lookup {
	t.Helper()
	args := []string{}
	if q.Base != "" {
		args = append(args, "-b", q.Base)
	}
	if q.Alias != 0 {
		args = append(args, "-a", fmt.Sprint(q.Alias))
	}
	args = append(args, q.File, fmt.Sprint(q.Kind))
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
		if _, err := fmt.Sscan(sc.Text(), &l.Name, &l.ID, &l.Comparisons, &l.Aliased); err != nil {
			t.Fatalf("libbpf harness: %q: %v", sc.Text(), err)
		}
		res = append(res, l)
	}
	if len(res) != len(names) {
		t.Fatalf("libbpf harness: %d answers for %d names:\n%s", len(res), len(names), strings.TrimSpace(string(out)))
	}
	return res
}
