package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestDumpCMatchesBpftool: 'btfkit dump --format c' prints bpftool's header
// for the running kernel, the Debian vmlinux ELF and a module with --base,
// also when the base is repeated as an input (it is then skipped).
func TestDumpCMatchesBpftool(t *testing.T) {
	testc.Require(t, "bpftool")
	type run struct {
		name    string
		ours    []string
		bpftool []string
	}
	var runs []run
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		runs = append(runs, run{"sysfs",
			[]string{"/sys/kernel/btf/vmlinux"},
			[]string{"btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c"}})
	}
	// Raw BTF: read through a mapping.
	raw := testenv.Reference(t, "host-6.18/vmlinux.btf")
	runs = append(runs, run{"raw-6.18", []string{raw}, []string{"btf", "dump", "file", raw, "format", "c"}})
	t.Run("debian", func(t *testing.T) {
		vm, _ := testenv.KernelInputs(t)
		mod := testenv.Module(t, "vxlan")
		runs = append(runs,
			run{"vmlinux", []string{vm}, []string{"btf", "dump", "file", vm, "format", "c"}},
			run{"module", []string{"--base", vm, mod}, []string{"-B", vm, "btf", "dump", "file", mod, "format", "c"}},
			run{"base-repeated", []string{"--base", vm, vm, mod}, []string{"-B", vm, "btf", "dump", "file", mod, "format", "c"}})
	})
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			got, stderr, code := btfkit(t, append([]string{"dump", "--format", "c"}, r.ours...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			want := testc.Output(t, "bpftool", r.bpftool...)
			if got != string(want) {
				t.Errorf("btfkit dump --format c %v differs from bpftool %v (%d vs %d bytes)", r.ours, r.bpftool, len(got), len(want))
			}
		})
	}
}

// TestDumpCOutputMake runs make twice over a rule that regenerates
// vmlinux.h every time (FORCE) and a BPF object that depends on it: the
// second run must not rebuild the object, since -o left the unchanged
// header alone. A header from other BTF then does rebuild it.
func TestDumpCOutputMake(t *testing.T) {
	testc.Require(t, "make", "clang")
	btfIn := "/sys/kernel/btf/vmlinux"
	if _, err := os.Stat(btfIn); err != nil {
		btfIn = testenv.Reference(t, "host-6.18/vmlinux.btf")
	}
	dir := t.TempDir()
	makefile := `BTF ?= ` + btfIn + `
prog.o: prog.c vmlinux.h
	@echo "REBUILD prog.o"
	clang -target bpf -O2 -g -c prog.c -o prog.o

vmlinux.h: FORCE
	` + testenv.Btfkit(t) + ` dump --format c -o $@ $(BTF)

FORCE:
.PHONY: FORCE
`
	prog := `#include "vmlinux.h"
int x(struct task_struct *t) { return t->pid; }
`
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte(makefile), 0o644)
	os.WriteFile(filepath.Join(dir, "prog.c"), []byte(prog), 0o644)
	mk := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("make", append([]string{"-C", dir}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := mk(); !strings.Contains(out, "REBUILD prog.o") {
		t.Fatalf("first make did not build prog.o:\n%s", out)
	}
	h1, _ := os.Stat(filepath.Join(dir, "vmlinux.h"))
	o1, _ := os.Stat(filepath.Join(dir, "prog.o"))
	time.Sleep(20 * time.Millisecond) // a rewrite would show in the mtimes
	if out := mk(); strings.Contains(out, "REBUILD") {
		t.Errorf("second make rebuilt prog.o although vmlinux.h did not change:\n%s", out)
	}
	h2, _ := os.Stat(filepath.Join(dir, "vmlinux.h"))
	o2, _ := os.Stat(filepath.Join(dir, "prog.o"))
	if !h1.ModTime().Equal(h2.ModTime()) || !os.SameFile(h1, h2) || !o1.ModTime().Equal(o2.ModTime()) {
		t.Errorf("unchanged header or object touched: header %v -> %v, object %v -> %v",
			h1.ModTime(), h2.ModTime(), o1.ModTime(), o2.ModTime())
	}

	// Other BTF, other header: make must rebuild.
	other := filepath.Join(dir, "other.h.btf")
	small := testc.Compile(t, filepath.Join(testc.CorpusDir(), "funcs.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf"}})
	data, _ := os.ReadFile(small)
	os.WriteFile(other, data, 0o644)
	os.WriteFile(filepath.Join(dir, "prog.c"), []byte("#include \"vmlinux.h\"\nint y(struct pair *p) { return p->a; }\n"), 0o644)
	os.Chtimes(filepath.Join(dir, "prog.c"), o2.ModTime().Add(-time.Hour), o2.ModTime().Add(-time.Hour))
	if out := mk("BTF=" + other); !strings.Contains(out, "REBUILD prog.o") {
		t.Errorf("make did not rebuild prog.o after the header changed:\n%s", out)
	}
}

// TestDumpCChangedExitCode: --changed-exit-code tells a script whether -o
// wrote the file.
func TestDumpCChangedExitCode(t *testing.T) {
	in := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf"}})
	out := filepath.Join(t.TempDir(), "types.h")
	args := []string{"dump", "--format", "c", "-o", out, "--changed-exit-code", "3", in}
	if _, stderr, code := btfkit(t, args...); code != 3 {
		t.Errorf("first write: exit %d, want 3 (%s)", code, stderr)
	}
	if _, stderr, code := btfkit(t, args...); code != 0 {
		t.Errorf("unchanged: exit %d, want 0 (%s)", code, stderr)
	}
	if _, _, code := btfkit(t, "dump", "--format", "c", "-o", out, in); code != 0 {
		t.Errorf("without --changed-exit-code: exit %d, want 0", code)
	}
	if _, stderr, code := btfkit(t, "dump", "-o", out, in); code != 1 || !strings.Contains(stderr, "--format c") {
		t.Errorf("-o with the raw format: exit %d, stderr %q; want 1 and a message naming --format c", code, stderr)
	}
	if _, stderr, code := btfkit(t, "dump", "--format", "c", in, in); code != 1 || !strings.Contains(stderr, "--base") {
		t.Errorf("several inputs without a base: exit %d, stderr %q; want 1 and a hint at --base", code, stderr)
	}
}
