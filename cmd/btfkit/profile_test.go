package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestProfilesFromEnvironment: BTFKIT_CPUPROFILE and BTFKIT_MEMPROFILE
// make btfkit write gzipped pprof profiles that `go tool pprof` reads, and
// leave the command's output as it is without them.
func TestProfilesFromEnvironment(t *testing.T) {
	bin := testenv.Btfkit(t)
	dir := t.TempDir()
	sample := filepath.Join("..", "..", "testdata", "sample.o")
	plain := filepath.Join(dir, "plain.btf")
	profiled := filepath.Join(dir, "profiled.btf")
	if out, err := exec.Command(bin, "encode", "-o", plain, sample).CombinedOutput(); err != nil {
		t.Fatalf("encode: %v\n%s", err, out)
	}
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	cmd := exec.Command(bin, "encode", "-o", profiled, sample)
	cmd.Env = append(os.Environ(), "BTFKIT_CPUPROFILE="+cpu, "BTFKIT_MEMPROFILE="+mem)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("encode with profiles: %v\n%s", err, out)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(profiled)
	if !bytes.Equal(a, b) {
		t.Fatal("profiling changed the output")
	}
	for _, p := range []string{cpu, mem} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			t.Fatalf("%s is not a gzipped pprof profile (%d bytes)", p, len(data))
		}
		if out, err := exec.Command("go", "tool", "pprof", "-raw", p).CombinedOutput(); err != nil {
			t.Fatalf("go tool pprof %s: %v\n%s", p, err, out)
		}
	}
}
