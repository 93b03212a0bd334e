package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// Resource bounds every command must keep on hostile input (ROBUSTNESS.md):
// CPU time (user and system, which a loaded machine does not inflate the
// way it does wall time) and peak RSS. wallLimit only stops a command that
// hangs.
const (
	cpuLimit  = 10 * time.Second
	rssLimit  = 1 << 30
	wallLimit = 3 * time.Minute
)

// usage is what a command run cost.
type usage struct {
	cpu time.Duration
	rss int64 // bytes
}

// runLimited runs btfkit with args like btfkit does, and fails the test
// when the command crashes (a panic, a signal, a Go runtime error), uses
// more than cpuLimit or rssLimit, or is still running after wallLimit.
// Exit status 0 and 1 are results; anything else is a crash.
func runLimited(t *testing.T, args ...string) (stdout, stderr string, code int, u usage) {
	t.Helper()
	cmd := exec.Command(testenv.Btfkit(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatalf("btfkit %s: %v", strings.Join(args, " "), err)
	}
	timer := time.AfterFunc(wallLimit, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	st := cmd.ProcessState
	u = usage{cpu: st.UserTime() + st.SystemTime()}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		u.rss = ru.Maxrss << 10
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("btfkit %s: %v", strings.Join(args, " "), err)
	}
	code = st.ExitCode()
	name := "btfkit " + strings.Join(args, " ")
	switch {
	case code == -1:
		t.Errorf("%s: killed by %v (after %v CPU; the wall limit is %v)\n%s", name, st.Sys().(syscall.WaitStatus).Signal(), u.cpu, wallLimit, tail(errb.String()))
	case code != 0 && code != 1:
		t.Errorf("%s: exit status %d\n%s", name, code, tail(errb.String()))
	case isCrash(errb.String()):
		t.Errorf("%s: crashed\n%s", name, tail(errb.String()))
	}
	if u.cpu > cpuLimit {
		t.Errorf("%s: %v of CPU, more than %v", name, u.cpu, cpuLimit)
	}
	if u.rss > rssLimit {
		t.Errorf("%s: peak RSS %d MiB, more than %d MiB", name, u.rss>>20, rssLimit>>20)
	}
	return out.String(), errb.String(), code, u
}

// isCrash reports whether stderr shows a Go panic or runtime failure.
func isCrash(stderr string) bool {
	for _, s := range []string{"panic:", "fatal error:", "goroutine ", "runtime error", "SIGSEGV"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// tail is the end of a long output, for messages.
func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
