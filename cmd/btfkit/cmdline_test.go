package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// btfkitIn runs the btfkit binary in dir.
func btfkitIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testenv.Btfkit(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("btfkit %v: %v", args, err)
	return "", "", -1
}

// cmdlineFixture copies testdata/sample.o into a new directory and encodes
// it there as sample.btf; it returns the directory.
func cmdlineFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(testenv.Root(t), "testdata", "sample.o"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sample.o"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := btfkitIn(t, dir, "encode", "-o", "sample.btf", "sample.o"); code != 0 {
		t.Fatalf("encode: %s", errOut)
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOutputDash: -o - writes to standard output in every command with
// -o (it used to write a file named "-"), the bytes -o FILE writes.
func TestOutputDash(t *testing.T) {
	dir := cmdlineFixture(t)
	for _, c := range []struct{ name, file string }{
		{"encode", "sample.o"}, {"dedup", "sample.btf"}, {"sort", "sample.btf"},
		{"downgrade --target-kernel 6.1", "sample.btf"}, {"dump --format c", "sample.btf"},
	} {
		args := strings.Fields(c.name)
		_, errOut, code := btfkitIn(t, dir, append(args, "-o", "out.file", c.file)...)
		if code != 0 {
			t.Fatalf("%s -o out.file: status %d: %s", c.name, code, errOut)
		}
		want := readFile(t, filepath.Join(dir, "out.file"))
		got, errOut, code := btfkitIn(t, dir, append(args, "-o", "-", c.file)...)
		if code != 0 || got != want || len(got) == 0 {
			t.Errorf("%s -o -: status %d, %d bytes on stdout, want the %d bytes of -o FILE: %s", c.name, code, len(got), len(want), errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
			t.Errorf("%s -o - wrote a file named -", c.name)
			os.Remove(filepath.Join(dir, "-"))
		}
	}
	// dump's raw listing writes to standard output anyway: -o - is taken.
	want, _, _ := btfkitIn(t, dir, "dump", "sample.btf")
	if got, errOut, code := btfkitIn(t, dir, "dump", "-o", "-", "sample.btf"); code != 0 || got != want {
		t.Errorf("dump -o -: status %d: %s", code, errOut)
	}
	// encode -v lists functions on stdout: not mixed with the BTF.
	if _, errOut, code := btfkitIn(t, dir, "encode", "-v", "-o", "-", "sample.o"); code != 1 || !strings.Contains(errOut, "-o -") {
		t.Errorf("encode -v -o -: status %d, %q; want 1 and a message", code, errOut)
	}
}

// TestOutputIsInput: an -o naming one of the command's inputs (the same
// path, another path to it, a link to it, its --base) is refused with a
// message naming it, exit status 1, and the input is left as it was (it
// used to be replaced: encode -o prog.o prog.o).
func TestOutputIsInput(t *testing.T) {
	dir := cmdlineFixture(t)
	if err := os.Symlink("sample.btf", filepath.Join(dir, "link.btf")); err != nil {
		t.Fatal(err)
	}
	obj, raw := readFile(t, filepath.Join(dir, "sample.o")), readFile(t, filepath.Join(dir, "sample.btf"))
	for _, args := range [][]string{
		{"encode", "-o", "sample.o", "sample.o"},
		{"encode", "-o", "./sample.o", "sample.o"},
		{"encode", "-o", filepath.Join(dir, "sample.o"), "sample.o"},
		{"encode", "--base", "sample.btf", "-o", "sample.btf", "sample.o"},
		{"dedup", "-o", "sample.btf", "sample.o", "sample.btf"},
		{"dedup", "-o", "link.btf", "sample.btf"},
		{"sort", "-o", "sample.btf", "sample.btf"},
		{"downgrade", "--target-kernel", "6.1", "-o", "sample.btf", "sample.btf"},
		{"dump", "--format", "c", "-o", "sample.btf", "sample.btf"},
	} {
		out, errOut, code := btfkitIn(t, dir, args...)
		o := ""
		for i, a := range args {
			if a == "-o" {
				o = args[i+1]
			}
		}
		if code != 1 || out != "" || !strings.Contains(errOut, "-o names an input") || !strings.HasPrefix(errOut, "btfkit: "+o+": ") {
			t.Errorf("btfkit %s: status %d, stderr %q; want 1 and a message naming the file", strings.Join(args, " "), code, errOut)
		}
		if readFile(t, filepath.Join(dir, "sample.o")) != obj || readFile(t, filepath.Join(dir, "sample.btf")) != raw {
			t.Fatalf("btfkit %s changed its input", strings.Join(args, " "))
		}
	}
}

// TestJobsChecked: a negative or absurd -j is an error naming it, exit
// status 1, in every command with -j (encode -j -3 used to be taken);
// -j 0 is one per CPU.
func TestJobsChecked(t *testing.T) {
	dir := cmdlineFixture(t)
	for _, cmd := range [][]string{
		{"encode", "-o", "x.btf", "sample.o"}, {"dedup", "-o", "x.btf", "sample.btf"},
		{"layout", "sample.o"}, {"dwarf-stats", "sample.o"},
	} {
		for _, j := range []string{"-3", "100000000"} {
			args := append([]string{cmd[0], "-j", j}, cmd[1:]...)
			out, errOut, code := btfkitIn(t, dir, args...)
			if code != 1 || out != "" || !strings.Contains(errOut, "-j "+j+": ") {
				t.Errorf("btfkit %s: status %d, stderr %q; want 1 and a message naming -j %s", strings.Join(args, " "), code, errOut, j)
			}
		}
		args := append([]string{cmd[0], "-j", "0"}, cmd[1:]...)
		if _, errOut, code := btfkitIn(t, dir, args...); code != 0 {
			t.Errorf("btfkit %s: status %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestFlagSpellings: a misspelt flag gets suggestions (layout
// --expand_typs used to be refused without one); pahole's spelling with
// underscores is the flag (layout --expand_types); -F/--from is the input
// format of layout, pretty and encode, also spelt --format_path (pahole's)
// and, in layout, --format (its old spelling, deprecated: --format is the
// output format of dump and pretty).
func TestFlagSpellings(t *testing.T) {
	dir := cmdlineFixture(t)
	for _, c := range []struct {
		args    []string
		suggest string
	}{
		{[]string{"layout", "--expand_typs", "sample.o"}, "--expand-types"},
		{[]string{"layout", "--hexx", "sample.o"}, "--hex"},
		{[]string{"dump", "--fromat", "c", "sample.btf"}, "--format"},
		{[]string{"encode", "--feature", "default", "-o", "x", "sample.o"}, "--features"},
	} {
		_, errOut, code := btfkitIn(t, dir, c.args...)
		if code != 1 || !strings.Contains(errOut, "Did you mean this?\n\t"+c.suggest+"\n") {
			t.Errorf("btfkit %s: status %d, stderr %q; want a suggestion of %s", strings.Join(c.args, " "), code, errOut, c.suggest)
		}
	}
	want, _, code := btfkitIn(t, dir, "layout", "-E", "-F", "dwarf", "sample.o")
	if code != 0 || want == "" {
		t.Fatalf("layout -E -F dwarf: status %d", code)
	}
	for _, args := range [][]string{
		{"layout", "--expand_types", "--from", "dwarf", "sample.o"},
		{"layout", "-E", "--format_path=dwarf", "sample.o"},
		{"layout", "-E", "--format-path", "dwarf", "sample.o"},
		{"layout", "-E", "--format", "dwarf", "sample.o"},
	} {
		got, errOut, code := btfkitIn(t, dir, args...)
		if code != 0 || got != want {
			t.Errorf("btfkit %s: status %d, stdout differs from layout -E -F dwarf: %s", strings.Join(args, " "), code, errOut)
		}
		if deprecated := strings.Contains(errOut, "deprecated"); deprecated != strings.Contains(strings.Join(args, " "), "--format ") {
			t.Errorf("btfkit %s: stderr %q", strings.Join(args, " "), errOut)
		}
	}
	raw := readFile(t, filepath.Join(dir, "sample.btf"))
	for _, args := range [][]string{
		{"encode", "-F", "dwarf", "-o", "-", "sample.o"},
		{"encode", "--format_path=dwarf", "-o", "-", "sample.o"},
	} {
		if got, errOut, code := btfkitIn(t, dir, args...); code != 0 || got != raw {
			t.Errorf("btfkit %s: status %d: %s", strings.Join(args, " "), code, errOut)
		}
	}
	// The help of each command with an input format says -F, --from.
	for _, cmd := range []string{"layout", "pretty", "encode"} {
		help, _, _ := btfkitIn(t, dir, cmd, "--help")
		if !strings.Contains(help, "  -F, --from ") {
			t.Errorf("btfkit %s --help has no -F, --from", cmd)
		}
	}
}
