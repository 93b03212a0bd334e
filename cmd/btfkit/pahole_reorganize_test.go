package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// reorgFixture is layout/testdata/reorg.c compiled by gcc, whose -R, -S
// and -P outputs layout/reorganize_test.go checks against pahole; here
// the command lines are.
func reorgFixture(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "layout", "testdata", "reorg.c"))
	if err != nil {
		t.Fatal(err)
	}
	return testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
}

// TestPaholeReorganize: -R, --reorganize and its prefixes, -P and
// --packable, against the pahole on PATH (structs pahole does not make
// larger; layout/reorganize_test.go has those). -R without -C and -S
// without -R print the plain listing, as pahole does.
func TestPaholeReorganize(t *testing.T) {
	obj := reorgFixture(t)
	names := "holes,tail,bits,anon,many,reorg_union,holes_t"
	for _, args := range [][]string{
		{"-R", "-C", names, obj},
		{"--reorganize", "--hex", "-C", names, obj},
		{"--reorg", "-c", "32", "--class_name=" + names, obj},
		{"-R", obj},
		{"-S", obj},
		{"-P", obj},
		{"--packable", "-c", "32", obj},
		{"-a", "-P", obj}, // anonymous structs: a typedef's name, or FILE(LINE)
	} {
		runBoth(t, args...)
	}
	runBoth(t, "-P", "-C", "holes,tight", obj) // -C prints layouts
}

// TestPaholeReorgSteps: -S with -R prints each move and the struct after
// it, as the pahole on PATH does (Debian's pahole 1.24 crashes there),
// the same as btfkit layout's --show-reorg-steps; btfkit layout refuses
// the combinations pahole ignores.
func TestPaholeReorgSteps(t *testing.T) {
	obj := reorgFixture(t)
	runBoth(t, "-RS", "-C", "holes", obj) // (pahole makes tail_unaligned larger: package layout's tests)
	out, errOut, code := runPahole(t, "-RS", "-C", "holes,tail_unaligned", obj)
	if code != 0 || strings.Count(out, "/* Moving ") < 3 || !strings.Contains(out, "/* Final reorganized struct: */") {
		t.Fatalf("pahole -RS: status %d, %s\n%s", code, errOut, out)
	}
	native, ncode := runBtfkit(t, nil, "layout", "--reorganize", "--show-reorg-steps", "-C", "holes,tail_unaligned", obj)
	if ncode != 0 || native != out {
		t.Errorf("btfkit layout --reorganize --show-reorg-steps: status %d:\n%s", ncode, native)
	}
	packable, _, _ := runPahole(t, "-P", obj)
	if native, ncode := runBtfkit(t, nil, "layout", "--packable", obj); ncode != 0 || native != packable {
		t.Errorf("btfkit layout --packable: status %d:\n%s\nwant\n%s", ncode, native, packable)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"layout", "-R", obj}, "--reorganize needs -C"},
		{[]string{"layout", "-S", "-C", "holes", obj}, "--show-reorg-steps needs --reorganize"},
	} {
		out, code := runBtfkit(t, nil, c.args...)
		if code != 1 || !strings.Contains(out, c.msg) {
			t.Errorf("btfkit %s: status %d, %q; want 1 and %q", strings.Join(c.args, " "), code, out, c.msg)
		}
	}
}

// TestPaholePrettifyIgnoresReorg: --prettify accepts -R, -S and -P and
// prints what it prints without them, as pahole does.
func TestPaholePrettifyIgnoresReorg(t *testing.T) {
	obj, data, _, _ := prettyRecords(t)
	want, _, code := runPahole(t, "-F", "dwarf", obj, "--header=file_hdr", "--prettify", data)
	if code != 0 {
		t.Fatalf("pahole --prettify: status %d", code)
	}
	got, errOut, code := runPahole(t, "-R", "-S", "-P", "-F", "dwarf", obj, "--header=file_hdr", "--prettify", data)
	if code != 0 || got != want {
		t.Errorf("pahole -R -S -P --prettify: status %d %s:\n%s", code, errOut, firstDiff(got, want))
	}
}
