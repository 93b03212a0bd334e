package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// peakRSSEnv marks the child process PeakRSS starts.
const peakRSSEnv = "BTFKIT_PEAK_RSS_CHILD"

// InPeakRSSChild reports whether this test process is the child PeakRSS
// started: the test does the work to measure, then calls ReportPeakRSS.
func InPeakRSSChild() bool { return os.Getenv(peakRSSEnv) == "1" }

// ReportPeakRSS prints the process's peak RSS for PeakRSS to read:
// VmHWM, not the rusage the parent gets, whose ru_maxrss of a child
// includes the parent's pages it shared between vfork and exec.
func ReportPeakRSS(t testing.TB) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Printf("VmHWM_KB=%s\n", strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
}

// PeakRSS runs the test named test again in a child process, with env
// added to the environment, and returns the child's peak RSS in KiB
// (mapped file pages included) and its process state. The child is the
// same test run with InPeakRSSChild true; it must pass and report.
func PeakRSS(t testing.TB, test string, env ...string) (kib int, state *os.ProcessState) {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(append(os.Environ(), peakRSSEnv+"=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM_KB="); ok {
			kib, _ = strconv.Atoi(v)
		}
	}
	if kib == 0 {
		t.Fatalf("child reported no VmHWM:\n%s", out)
	}
	return kib, cmd.ProcessState
}
