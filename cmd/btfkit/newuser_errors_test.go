package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestMissingInputsOneForm: a missing input is reported the same way by
// every command, naming the file once ("FILE: open: no such file or
// directory"), exit status 1. (check named it twice; layout and pretty
// said "stat FILE: ...".) A type name where layout wants a file gets a
// hint to use -C. pfunct, which takes a FILE that does not exist for a
// function of the running kernel and says nothing when it finds none,
// says so and exits 1; -f NAME found in no file is said on standard error
// (pfunct 1.32's exit status 0 kept).
func TestMissingInputsOneForm(t *testing.T) {
	const missing = "/nonexistent/input.btf"
	want := missing + ": open: no such file or directory"
	for _, args := range [][]string{
		{"dump", missing},
		{"check", missing},
		{"diff", missing, missing},
		{"layout", missing},
		{"layout", "-F", "btf", missing},
		{"pretty", "-C", "x", missing, missing},
		{"sort", "-o", filepath.Join(t.TempDir(), "out.btf"), missing},
		{"encode", "-o", filepath.Join(t.TempDir(), "out.btf"), missing},
	} {
		out, code := runBtfkit(t, nil, args...)
		if code != 1 || strings.Count(out, missing) != 1 || !strings.Contains(out, want) {
			t.Errorf("btfkit %s: exit %d, %q; want exit 1 and %q once", strings.Join(args, " "), code, out, want)
		}
	}

	out, code := runBtfkit(t, nil, "layout", "sk_buff")
	if code != 1 || !strings.Contains(out, "layout -C sk_buff") {
		t.Errorf("btfkit layout sk_buff: exit %d, %q; want exit 1 and a hint to use -C", code, out)
	}

	out, code = runBtfkit(t, nil, "pfunct", missing)
	if code != 1 || !strings.Contains(out, missing+": no such file") {
		t.Errorf("btfkit pfunct %s: exit %d, %q; want exit 1 and a message naming it", missing, code, out)
	}
	sample := filepath.Join(testenv.Root(t), "testdata", "sample.o")
	out, code = runBtfkit(t, nil, "pfunct", "-f", "no_such_function", sample)
	if code != 0 || !strings.Contains(out, "function 'no_such_function' not found") {
		t.Errorf("btfkit pfunct -f no_such_function: exit %d, %q; want exit 0 (pfunct 1.32's) and a message", code, out)
	}
	out, code = runBtfkit(t, nil, "pfunct", "-f", "helper_static", sample)
	if code != 0 || strings.Contains(out, "not found") || !strings.Contains(out, "helper_static(") {
		t.Errorf("btfkit pfunct -f helper_static: exit %d, %q", code, out)
	}
}

// TestOneModuleSummary: the batch summary of one module says "1 module"
// (it said "1 modules").
func TestOneModuleSummary(t *testing.T) {
	base := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	var mod string
	for _, m := range testenv.Modules(t) {
		if filepath.Base(m) == "virtio_net.ko" {
			mod = m
		}
	}
	if mod == "" {
		t.Fatal("no virtio_net.ko among the Debian modules")
	}
	out, code := runBtfkit(t, nil, "encode", "--base", base, "--out-dir", t.TempDir(), mod)
	if code != 0 || !strings.Contains(out, "btfkit encode: 1 module, 1 written, 0 failed, ") {
		t.Errorf("encode --out-dir of one module: exit %d, %q", code, out)
	}
}
