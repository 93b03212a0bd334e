package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// runPrettyCmd runs the built `btfkit pretty` with stdin from a file when
// given, returning stdout, stderr and the exit status.
func runPrettyCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(testenv.Btfkit(t), append([]string{"pretty"}, args...)...)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// TestPrettyCommand: `btfkit pretty` prints what `btfkit pahole
// --prettify` prints for the same options (tested against pahole), with
// the --header struct first unless --no-print-header; JSON lines parse;
// errors exit 1 naming the file and offset.
func TestPrettyCommand(t *testing.T) {
	obj, data, _, _ := prettyRecords(t)
	typed := "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext,range=recs),trailer(range=tail)"
	want, errOut, code := runPahole(t, "-F", "dwarf", obj, "--header=file_hdr", "-C", typed, "--prettify", data)
	if code != 0 {
		t.Fatalf("pahole: %d %s", code, errOut)
	}
	header, _, _ := runPahole(t, "-F", "dwarf", obj, "--header=file_hdr", "--prettify", data)

	got, errOut, code := runPrettyCmd(t, "", "--header", "file_hdr", "-C", typed, obj, data)
	if code != 0 || got != header+want {
		t.Errorf("btfkit pretty: exit %d (%s); want the header then pahole's output:\n%s", code, errOut, firstDiff(got, header+want))
	}
	got, _, code = runPrettyCmd(t, data, "--no-print-header", "--header", "file_hdr", "-F", "dwarf", "-C", typed, obj, "-")
	if code != 0 || got != want {
		t.Errorf("btfkit pretty --no-print-header on stdin: exit %d:\n%s", code, firstDiff(got, want))
	}

	got, errOut, code = runPrettyCmd(t, "", "--format", "json", "--header", "file_hdr", "-C", typed, obj, data)
	if code != 0 {
		t.Fatalf("--format json: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != strings.Count(header+want, "\n},\n") {
		t.Errorf("%d JSON lines for %d records", len(lines), strings.Count(header+want, "\n},\n"))
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad")
	raw, _ := os.ReadFile(data)
	os.WriteFile(bad, raw[:90], 0o644) // the first record (68..100) cut short
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"--header", "file_hdr", "--range", "recs", "-C", "rec_hdr(sizeof=len)", obj, bad}, "btfkit: " + bad + ": offset 0x44: record of 32 bytes"},
		{[]string{"-C", "nosuch", obj, data}, "btfkit: type 'nosuch' not found"},
		{[]string{"--format", "xml", "-C", "rec_hdr", obj, data}, "--format xml: use text or json"},
		{[]string{obj, data}, "give the type of the records with -C"},
		{[]string{"-C", "rec_hdr", obj, filepath.Join(t.TempDir(), "nosuch")}, "no such file"},
		{[]string{"-C", "rec_hdr", "-F", "btf", obj, data}, "no btf type information"},
	} {
		_, errOut, code := runPrettyCmd(t, "", c.args...)
		if code != 1 || !strings.Contains(errOut, c.err) {
			t.Errorf("btfkit pretty %s: exit %d, %q; want 1 and %q", strings.Join(c.args, " "), code, errOut, c.err)
		}
	}
}
