package main

import (
	"bytes"
	"errors"
	"os/exec"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// The command tests run the btfkit binary as a process, to see what a user
// sees: stdout, stderr, exit status. testenv builds it once for all of
// them and Main removes it afterwards.
func TestMain(m *testing.M) { testenv.Main(m) }

// btfkit runs the btfkit binary with args and returns its stdout, stderr
// and exit status.
func btfkit(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, testenv.Btfkit(t), args...)
}

// runCmd runs a command, returning stdout, stderr and the exit status.
func runCmd(t testing.TB, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("running %s %v: %v", name, args, err)
	return "", "", -1
}
