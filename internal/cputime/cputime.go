// Package cputime reads how much CPU time a thread or the process has
// used, for the stage timings of btfkit encode --stats and the benchmarks:
// on a machine shared with other work, CPU time is distorted far less
// than elapsed time. It must not know what is being timed.
package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Thread is the CPU time (user and system) of the calling thread. A
// goroutine that measures itself must be locked to its thread
// (runtime.LockOSThread) for the difference of two readings to be its own.
func Thread() time.Duration { return rusage(unix.RUSAGE_THREAD) }

// Process is the CPU time (user and system) of the whole process, all
// threads and the garbage collector included.
func Process() time.Duration { return rusage(unix.RUSAGE_SELF) }

func rusage(who int) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
