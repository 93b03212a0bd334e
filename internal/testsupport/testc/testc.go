package testc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// Compiler names a C compiler found on PATH.
type Compiler string

const (
	GCC   Compiler = "gcc"
	Clang Compiler = "clang"
)

// Variant is one way of compiling a fixture.
type Variant struct {
	CC    Compiler
	Flags []string // e.g. -gdwarf-5 -O2
}

// Name is a short, file-name-safe description of the variant.
func (v Variant) Name() string {
	s := string(v.CC)
	for _, f := range v.Flags {
		s += strings.ReplaceAll(strings.TrimLeft(f, "-"), "=", "")
	}
	return s
}

// DWARFVariants are the compiler/flag combinations the DWARF-reading tests
// run over: gcc and clang, DWARF 4 and 5, -O0 and -O2.
func DWARFVariants() []Variant {
	var vs []Variant
	for _, cc := range []Compiler{GCC, Clang} {
		for _, dw := range []string{"-gdwarf-4", "-gdwarf-5"} {
			for _, opt := range []string{"-O0", "-O2"} {
				vs = append(vs, Variant{CC: cc, Flags: []string{dw, opt}})
			}
		}
	}
	return vs
}

// CorpusDir is the absolute path of the C corpus shipped with this package.
func CorpusDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "corpus")
}

// CorpusFiles lists the .c files of the corpus, sorted.
func CorpusFiles(t testing.TB) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(CorpusDir(), "*.c"))
	if err != nil || len(m) == 0 {
		t.Fatalf("testc: no corpus files in %s (%v)", CorpusDir(), err)
	}
	sort.Strings(m)
	return m
}

// Have reports whether the compiler is on PATH.
func Have(cc Compiler) bool {
	_, err := exec.LookPath(string(cc))
	return err == nil
}

// Require stops the test through testenv.SkipOrFail (a skip, or a failure
// under CI=true) when a tool is missing: scripts/install-test-deps
// installs them all. A dwarves tool (pahole, pfunct, codiff, pdwtags,
// pglobal, prefcnt) must be the reference release's, pahole 1.32 from
// scripts/sid-tools, which testenv puts first on PATH; Debian 12's 1.24
// does not count.
func Require(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		p, err := exec.LookPath(tool)
		if err != nil {
			testenv.SkipOrFail(t, "%q not found on PATH; run scripts/install-test-deps", tool)
			continue
		}
		if testenv.IsDwarvesTool(tool) && !testenv.OnDwarvesPath(p) {
			testenv.SkipOrFail(t, "%s %s (Debian sid's) is not installed, only %s; run scripts/sid-tools (scripts/install-test-deps does)",
				tool, testenv.DwarvesVersion, p)
		}
	}
}

var cacheMu sync.Mutex
var cache = map[string]string{}
var cacheDir string

// Compile compiles one C source with the variant's compiler and flags (plus
// extra) into an object file (-c) and returns its path. Results are cached
// for the life of the test binary, keyed by compiler, source and flags, under
// a directory os.TempDir()/btfkit-testc-*.
func Compile(t testing.TB, src string, v Variant, extra ...string) string {
	t.Helper()
	Require(t, string(v.CC))
	args := append(append([]string{}, v.Flags...), extra...)
	key := string(v.CC) + "\x00" + src + "\x00" + strings.Join(args, "\x00")
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if p, ok := cache[key]; ok {
		return p
	}
	if cacheDir == "" {
		d, err := os.MkdirTemp("", "btfkit-testc-")
		if err != nil {
			t.Fatal(err)
		}
		cacheDir = d
	}
	base := strings.TrimSuffix(filepath.Base(src), ".c")
	out := filepath.Join(cacheDir, fmt.Sprintf("%s-%s-%d.o", base, v.Name(), len(cache)))
	cmdArgs := append([]string{"-c", "-o", out}, args...)
	cmdArgs = append(cmdArgs, src)
	if err := run(string(v.CC), cmdArgs...); err != nil {
		t.Fatalf("testc: %v", err)
	}
	cache[key] = out
	return out
}

// Run runs a command and returns its combined output as an error on failure.
func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, buf.String())
	}
	return nil
}

// Run runs an external command (objcopy, ld, ...) for a test and fails the
// test with its output if it fails.
func Run(t testing.TB, name string, args ...string) {
	t.Helper()
	Require(t, name)
	if err := run(name, args...); err != nil {
		t.Fatal(err)
	}
}

// Output runs a command and returns its stdout; the test fails on error.
func Output(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	Require(t, name)
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out
}
