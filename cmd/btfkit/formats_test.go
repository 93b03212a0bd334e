package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// formatsFixture compiles a small C file with gcc -g: DWARF, no .BTF.
func formatsFixture(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "formats.c")
	if err := os.WriteFile(src, []byte("struct s { int a; char b; long c; };\nstruct s v;\nint f(struct s *p) { return p->a; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
}

// TestInputFormatLists: one parser (input.ParseFormats, PaholeFormats)
// reads -F everywhere. Under pahole's and pfunct's names the lists read
// as pahole 1.32 and its pfunct read them, checked against them: ctf is
// a format no file has (the next one is tried: pfunct -F ctf,dwarf used
// to find no type information), a name with no loader stops the search
// ("Operation not supported" from pahole; btfkit said "Invalid
// argument"). btfkit's own commands refuse ctf as unsupported and an
// unknown name as unknown, both before reading anything.
func TestInputFormatLists(t *testing.T) {
	obj := formatsFixture(t)
	for _, fp := range []string{"ctf,dwarf", "dwarf,ctf", "ctf", "foo", "foo,dwarf", "dwarf,foo", "dwarf,,btf"} {
		runBoth(t, "-F", fp, "-C", "s", obj)
	}

	testc.Require(t, "pfunct")
	for _, fp := range []string{"ctf,dwarf", "dwarf,ctf", "ctf", "foo", "foo,dwarf", "dwarf,foo"} {
		out, errOut, code := btfkit(t, "pfunct", "-F", fp, obj)
		wout, werr, wcode := runCmd(t, "pfunct", "-F", fp, obj)
		if out != wout || code != wcode || errOut != werr {
			t.Errorf("pfunct -F %s: exit %d, %q, stderr %q; pfunct 1.32: exit %d, %q, stderr %q", fp, code, out, errOut, wcode, wout, werr)
		}
	}

	for _, c := range []struct{ fp, want string }{
		{"ctf", "-F ctf: ctf is not supported"},
		{"dwarf,ctf", "-F dwarf,ctf: ctf is not supported"},
		{"foo", "-F foo: unknown debug format 'foo'"},
	} {
		for _, args := range [][]string{
			{"layout", "-F", c.fp, "-C", "s", obj},
			{"pretty", "-F", c.fp, "-C", "s", obj, obj},
		} {
			out, errOut, code := btfkit(t, args...)
			if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("btfkit %s: exit %d, %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, out, errOut, c.want)
			}
		}
	}
	// The lists btfkit reads are read as before.
	for _, fp := range []string{"dwarf", "btf,dwarf", "dwarf,btf"} {
		out, errOut, code := btfkit(t, "layout", "-F", fp, "-C", "s", obj)
		if code != 0 || !strings.HasPrefix(out, "struct s {") {
			t.Errorf("btfkit layout -F %s: exit %d, %q, stderr %q", fp, code, out, errOut)
		}
	}
}
