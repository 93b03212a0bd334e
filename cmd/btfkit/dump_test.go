package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func dumpTestObject(t *testing.T, name string) string {
	t.Helper()
	return testc.Compile(t, filepath.Join(testc.CorpusDir(), name), testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf"}})
}

// TestDumpCommandMatchesBpftool: one plain input, no heading, bpftool's bytes.
func TestDumpCommandMatchesBpftool(t *testing.T) {
	testc.Require(t, "bpftool")
	inputs := []string{dumpTestObject(t, "types.c")}
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err == nil {
		inputs = append(inputs, "/sys/kernel/btf/vmlinux")
	}
	for _, in := range inputs {
		got, stderr, code := btfkit(t, "dump", in)
		if code != 0 {
			t.Fatalf("btfkit dump %s: exit %d: %s", in, code, stderr)
		}
		want := testc.Output(t, "bpftool", "btf", "dump", "file", in)
		if got != string(want) {
			t.Errorf("btfkit dump %s differs from bpftool (%d vs %d bytes)", in, len(got), len(want))
		}
	}
}

// TestDumpCommandArchiveAndSeveralFiles: an ld -r archive prints every
// member under a heading, where bpftool prints only the first member; with
// several files each gets a "# FILE" heading.
func TestDumpCommandArchiveAndSeveralFiles(t *testing.T) {
	testc.Require(t, "bpftool", "ld")
	objs := []string{dumpTestObject(t, "types.c"), dumpTestObject(t, "funcs.c"), dumpTestObject(t, "tags.c")}
	all := filepath.Join(t.TempDir(), "all.o")
	testc.Run(t, "ld", append([]string{"-r", "-z", "muldefs", "-o", all}, objs...)...)

	got, stderr, code := btfkit(t, "dump", all)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var want strings.Builder
	for i, o := range objs {
		fmt.Fprintf(&want, "# %s: archive member %d of %d\n", all, i, len(objs))
		want.Write(testc.Output(t, "bpftool", "btf", "dump", "file", o))
	}
	if got != want.String() {
		t.Errorf("archive listing differs from the members' bpftool listings under headings:\n%s", got)
	}
	// bpftool's own behaviour on the archive, as documented in --help: the
	// first member only.
	first := testc.Output(t, "bpftool", "btf", "dump", "file", objs[0])
	if bt := testc.Output(t, "bpftool", "btf", "dump", "file", all); !bytes.Equal(bt, first) {
		t.Logf("note: bpftool no longer prints only the first member of an archive; update dump --help")
	}

	got, stderr, code = btfkit(t, "dump", objs[0], objs[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want.Reset()
	for _, o := range objs[:2] {
		fmt.Fprintf(&want, "# %s\n", o)
		want.Write(testc.Output(t, "bpftool", "btf", "dump", "file", o))
	}
	if got != want.String() {
		t.Errorf("two files: got\n%s", got)
	}
}

// TestDumpCommandErrors: bad input gives "btfkit: FILE: offset 0x..: why"
// on stderr and exit status 1, and nothing half-done on stdout for a single
// input.
func TestDumpCommandErrors(t *testing.T) {
	dir := t.TempDir()
	obj := dumpTestObject(t, "types.c")
	raw := filepath.Join(dir, "types.btf")
	testc.Run(t, "objcopy", "--dump-section", ".BTF="+raw, obj, filepath.Join(dir, "scratch.o"))
	data, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.btf")
	os.WriteFile(trunc, data[:100], 0o644)
	notBTF := filepath.Join(dir, "text.btf")
	os.WriteFile(notBTF, []byte("hello\n"), 0o644)
	badKind := filepath.Join(dir, "badkind.btf")
	bk := append([]byte(nil), data...)
	bk[24+4+3] = 0x1f // first type's info word, kind bits: kind 31
	os.WriteFile(badKind, bk, 0o644)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dump", trunc}, "btfkit: " + trunc + ": offset 0x8: type section"},
		{[]string{"dump", notBTF}, "btfkit: " + notBTF + ": offset 0x0: not BTF: bad magic"},
		{[]string{"dump", badKind}, "btfkit: " + badKind + ": offset 0x1c: type [1]: unknown kind 31"},
		{[]string{"dump", filepath.Join(dir, "missing")}, "btfkit: " + filepath.Join(dir, "missing") + ": open: no such file"},
		{[]string{"dump", "--base", notBTF, obj}, "btfkit: base: " + notBTF + ": offset 0x0"},
		{[]string{"dump", "--format", "nosuch", obj}, `btfkit: unknown format "nosuch" (known: `},
	} {
		stdout, stderr, code := btfkit(t, c.args...)
		if code != 1 || !strings.HasPrefix(stderr, c.want) || stdout != "" {
			t.Errorf("btfkit %s: exit %d, stdout %q, stderr %q; want exit 1 and stderr starting %q",
				strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
	}
}

// TestDumpHelpListsFormats: --help lists the registered formats.
func TestDumpHelpListsFormats(t *testing.T) {
	out, _, code := btfkit(t, "dump", "--help")
	if code != 0 || !strings.Contains(out, "\n  raw ") || !strings.Contains(out, "btfkit dump /sys/kernel/btf/vmlinux") {
		t.Fatalf("dump --help (exit %d):\n%s", code, out)
	}
}

// TestDumpCommandSplitWithoutBase: a module's split BTF without --base says
// what is missing.
func TestDumpCommandSplitWithoutBase(t *testing.T) {
	ko := testenv.Module(t, "vfat")
	_, stderr, code := btfkit(t, "dump", ko)
	if code != 1 || !strings.Contains(stderr, "split BTF") || !strings.Contains(stderr, "--base") {
		t.Fatalf("btfkit dump %s: exit %d, stderr %q", ko, code, stderr)
	}
}
