package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestLayoutTypeNotFound: a -C name no input has. pahole 1.32 says
// "pahole: type 'NAME' not found" on stderr and exits 0, from DWARF and
// from BTF; btfkit pahole does the same (checked against it), and where
// pahole says nothing (--sort) still exits 0 with empty stdout but says
// one line on stderr. btfkit layout says so in the inputs' error form,
// "btfkit layout: FILE: type 'NAME' not found", and exits 1; it was
// silent with exit 0 under --sort and did not name the file.
func TestLayoutTypeNotFound(t *testing.T) {
	obj := formatsFixture(t)
	btfObj := filepath.Join(t.TempDir(), "btf.o")
	data, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(btfObj, data, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "pahole", "-J", btfObj) // pahole 1.32 adds the .BTF

	const name = "no_such_struct"
	for _, args := range [][]string{
		{"-C", name, obj},
		{"-F", "btf", "-C", name, btfObj},
		{"-C", "s," + name, obj},
		{"--sizes", "-C", name, obj},
		{"-C", name, obj, btfObj},
	} {
		runBoth(t, args...)
	}

	// pahole's silent case: its stdout and status, and a note.
	runBothNote(t, name, "--sort", "-C", name, obj)
	runBothNote(t, name, "-F", "btf", "--sort", "-C", name, btfObj)
	runBothNote(t, name, "--sort", "-C", "s,"+name, obj)

	for _, c := range []struct {
		args []string
		file string
	}{
		{[]string{"-C", name, obj}, obj},
		{[]string{"--sort", "-C", name, obj}, obj},
		{[]string{"-F", "btf", "-C", name, btfObj}, btfObj},
		{[]string{"-C", "s," + name, obj}, obj},
	} {
		out, errOut, code := btfkit(t, append([]string{"layout"}, c.args...)...)
		want := "btfkit layout: " + c.file + ": type '" + name + "' not found\n"
		if code != 1 || errOut != want {
			t.Errorf("btfkit layout %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(c.args, " "), code, errOut, want)
		}
		if c.args[1] == name && out != "" {
			t.Errorf("btfkit layout %s: stdout %q", strings.Join(c.args, " "), out)
		}
	}
}

// runBothNote is runBoth where pahole says nothing of a missing type
// name: btfkit pahole's status and stdout are pahole's, and its stderr
// is one line naming the type.
func runBothNote(t *testing.T, name string, args ...string) {
	t.Helper()
	wcode, wout, werr := paholeOracle(t, args...)
	out, errOut, code := runPahole(t, args...)
	if werr != "" {
		t.Fatalf("pahole %s: stderr %q: not silent of %s", strings.Join(args, " "), werr, name)
	}
	if code != wcode || out != wout {
		t.Errorf("btfkit pahole %s: status %d, %d bytes of output; pahole: status %d, %d bytes", strings.Join(args, " "), code, len(out), wcode, len(wout))
	}
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "'"+name+"' not found") {
		t.Errorf("btfkit pahole %s: stderr %q; want one line saying %s was not found", strings.Join(args, " "), errOut, name)
	}
}
