package cputime

import (
	"runtime"
	"testing"
	"time"
)

// A busy loop of a thread shows in its own CPU time and in the process's;
// sleeping does not add to the thread's.
func TestThreadAndProcess(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, p0 := Thread(), Process()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	t1, p1 := Thread(), Process()
	if t1-t0 <= 0 || p1-p0 <= 0 {
		t.Fatalf("a 50 ms busy loop used %v of the thread's CPU, %v of the process's (%d rounds)", t1-t0, p1-p0, x)
	}
	if p1-p0 < t1-t0-time.Millisecond {
		t.Errorf("the process used %v, less than its thread's %v", p1-p0, t1-t0)
	}
	time.Sleep(30 * time.Millisecond)
	if t2 := Thread(); t2-t1 > 20*time.Millisecond {
		t.Errorf("sleeping 30 ms used %v of the thread's CPU", t2-t1)
	}
}
