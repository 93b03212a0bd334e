package testenv

import (
	"fmt"
	"io"
	"os"
	"sync"
	"testing"
)

// InCI reports whether the tests run under CI (CI=true), where every
// prerequisite is installed and a missing one is a failure.
func InCI() bool { return os.Getenv("CI") == "true" }

// SkipOrFail stops a test whose prerequisite (a tool, the kernel inputs,
// a permission CI has) is missing: it skips with a "SKIP:" message, said
// once on stderr too when go test runs without -v (which hides skip
// messages); under CI=true it fails the test instead. A skip that CI
// cannot avoid either (-short, the race detector, an opt-in timing test)
// is a plain t.Skip with a comment saying so.
func SkipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("CI=true, but %s", msg)
	}
	sayOnce(t, msg)
	t.Skipf("SKIP: %s", msg)
}

var (
	skipSaid sync.Map
	skipOut  io.Writer = os.Stderr
)

// SkipPartOrFail is SkipOrFail for a test that goes on without one of its
// checks: it logs "SKIP: ..." (said once on stderr too without -v), or
// fails the test under CI=true.
func SkipPartOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Errorf("CI=true, but %s", msg)
		return
	}
	sayOnce(t, msg)
	t.Logf("SKIP: %s", msg)
}

// SkipPart is SkipPartOrFail for a check no machine is sure to have the
// prerequisite of, CI's included (a module the running kernel has not
// loaded, the debug vmlinux of the running kernel, a kernel source tree):
// it logs "SKIP: ..." (said once on stderr too without -v) and never
// fails.
func SkipPart(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	sayOnce(t, msg)
	t.Logf("SKIP: %s", msg)
}

// sayOnce writes a skip message on stderr the first time it is given,
// unless go test runs with -v, which shows skip messages anyway.
func sayOnce(t testing.TB, msg string) {
	if _, said := skipSaid.LoadOrStore(msg, true); !said && !testing.Verbose() {
		fmt.Fprintf(skipOut, "SKIP: %s: %s\n", t.Name(), msg)
	}
}
