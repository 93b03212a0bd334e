package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestEncodeStats: --stats prints a line per stage and per dedup phase,
// the total and the peak memory, on stderr; the BTF written is the same
// as without it, byte for byte (timing must not change what is made).
func TestEncodeStats(t *testing.T) {
	v := testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}}
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs_incons_a.c"), v)
	dir := t.TempDir()
	plain, withStats := filepath.Join(dir, "plain.btf"), filepath.Join(dir, "stats.btf")
	if _, stderr, code := btfkit(t, "encode", "-o", plain, obj); code != 0 {
		t.Fatalf("encode: status %d: %s", code, stderr)
	}
	stdout, stderr, code := btfkit(t, "encode", "--stats", "-j2", "-o", withStats, obj)
	if code != 0 {
		t.Fatalf("encode --stats: status %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("--stats printed to stdout: %q", stdout)
	}
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(withStats)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("the BTF differs with --stats (%d and %d bytes)", len(a), len(b))
	}
	stages := map[string]bool{}
	for _, l := range strings.Split(stderr, "\n") {
		if f := strings.Fields(l); len(f) >= 3 {
			stages[f[0]] = true
		}
	}
	for _, want := range []string{"open", "walk", "convert", "merge", "funcs", "dedup", "load", "strings", "primitive", "struct", "fwd", "reference", "compact", "finish", "write", "total"} {
		if !stages[want] {
			t.Errorf("no %q line in:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stderr, "1 units") || !strings.Contains(stderr, "peak RSS") {
		t.Errorf("no unit count or peak RSS in:\n%s", stderr)
	}
	// Without --stats, nothing on stderr.
	if _, stderr, _ := btfkit(t, "encode", "-o", plain, obj); stderr != "" {
		t.Errorf("without --stats, stderr: %q", stderr)
	}
}
