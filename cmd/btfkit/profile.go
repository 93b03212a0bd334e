package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles writes Go profiles of the whole run for performance work
// (docs/BENCHMARKS.md): a CPU profile to $BTFKIT_CPUPROFILE and a heap
// profile, taken at the end, to $BTFKIT_MEMPROFILE, when they are set.
// Environment variables rather than flags, so that pahole's and
// pfunct's command lines stay exactly theirs. The returned function
// finishes them; main calls it before exiting.
func startProfiles() (stop func()) {
	cpu, mem := os.Getenv("BTFKIT_CPUPROFILE"), os.Getenv("BTFKIT_MEMPROFILE")
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "btfkit: BTFKIT_CPUPROFILE=%s: %v\n", cpu, err)
		} else {
			cpuFile = f
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			f, err := os.Create(mem)
			if err == nil {
				runtime.GC()
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "btfkit: BTFKIT_MEMPROFILE=%s: %v\n", mem, err)
			}
		}
	}
}
