package main

// Bad data through `btfkit pahole --prettify`, against pahole (1.32): where
// pahole copes (a record of size zero, a size smaller than the header, a
// type value no enumerator names) the same output and exit status 0; where
// it does not (it prints part of the records and a message without an
// offset, or nothing, and exits 0) the same records on stdout, then an
// error naming the file and the record's offset, and exit status 1. Every
// run has a deadline.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/prettytest"
)

// runPaholeDeadline runs btfkit's pahole in-process, failing the test if
// it does not return within 30 s.
func runPaholeDeadline(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	type result struct {
		out, err string
		code     int
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		code := paholeMain(args, &o, &e)
		done <- result{o.String(), e.String(), code}
	}()
	select {
	case r := <-done:
		return r.out, r.err, r.code
	case <-time.After(30 * time.Second):
		t.Fatalf("pahole %s did not finish in 30 s", strings.Join(args, " "))
	}
	return "", "", 0
}

func TestPrettifyBadDataAgainstPahole(t *testing.T) {
	requirePahole(t)
	obj, _, spec, _ := prettyRecords(t)
	l := &prettytest.Layout{Spec: spec}
	mk := func(name string, extra int, kind, length uint64) []byte {
		r := l.New(name, extra)
		if name == "rec_hdr" {
			return r.Set("kind", kind).Set("len", length).B
		}
		return r.Set("hdr.kind", kind).Set("hdr.len", length).B
	}
	point := mk("rec_point", 0, 1, 32)
	typed := "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext)"
	dir := t.TempDir()
	cases := []struct {
		name   string
		data   []byte
		args   []string
		code   int    // btfkit's exit status (pahole's is 0 throughout)
		stderr string // in btfkit's stderr
	}{
		{"size zero", bytes.Join([][]byte{point, mk("rec_hdr", 0, 2, 0), point}, nil), []string{"-C", typed}, 0, ""},
		// After a longer record: the struct's bytes past the record are
		// what pahole's buffer still holds (before any, pahole reads
		// outside its buffer; btfkit reads zeros there).
		{"size below the header's", bytes.Join([][]byte{point, mk("rec_hdr", 0, 1, 2), point}, nil), []string{"-C", typed}, 0, ""},
		{"no enumerator", bytes.Join([][]byte{mk("rec_hdr", 4, 99, 8), point}, nil), []string{"-C", typed}, 0, ""},
		{"past the end", bytes.Join([][]byte{point, mk("rec_hdr", 10, 1, 100)}, nil), []string{"-C", typed}, 1, "offset 0x20: record of 100 bytes"},
		{"truncated", bytes.Join([][]byte{point, point[:3]}, nil), []string{"-C", typed}, 1, "offset 0x20: truncated record"},
		{"seek past the end", point, []string{"--seek_bytes=4096", "-C", typed}, 1, "offset 0x20: --seek_bytes=4096: the data ends"},
		{"header too short", point[:20], []string{"--header=file_hdr", "--range=recs", "-C", typed}, 1, "offset 0x0: --header (file_hdr) type couldn't be read"},
		{"type not found", point, []string{"-C", "nosuch"}, 1, "pahole: type 'nosuch' not found"},
		// pahole 1.32 guards its seek against negative offsets ("can't
		// seek backward in non-seekable input", even in a file, and
		// exit status 0).
		{"seek before the start", point, []string{"--seek_bytes=-8", "-C", typed}, 1, "--seek_bytes=-8: can't go back in the input to offset -0x8"},
	}
	for i, c := range cases {
		data := filepath.Join(dir, "bad"+string(rune('a'+i)))
		if err := os.WriteFile(data, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"-F", "dwarf", obj}, c.args...), "--prettify="+data)
		want, werr, wcode := runPaholeTool(t, "pahole", "", args...)
		got, gerr, gcode := runPaholeDeadline(t, args...)
		if got != want {
			t.Errorf("%s: stdout differs from pahole's:\n%s", c.name, firstDiff(got, want))
		}
		if gcode != c.code || (c.stderr == "" && gerr != "") || !strings.Contains(gerr, c.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q (pahole: exit %d, %q)", c.name, gcode, gerr, c.code, c.stderr, wcode, werr)
		}
		if c.code != 0 && !strings.Contains(gerr, data) && !strings.Contains(gerr, "not found") {
			t.Errorf("%s: the error does not name the file %s: %q", c.name, data, gerr)
		}
	}
	// Back on a pipe: pahole 1.32 says it cannot seek backward in
	// non-seekable input, prints nothing and exits 0.
	hdr := l.New("file_hdr", 0).B
	pipeData := bytes.Join([][]byte{hdr, point, point}, nil)
	pargs := []string{"-F", "dwarf", obj, "--header=file_hdr", "--seek_bytes=8", "-C", typed, "--prettify=-"}
	want, werr, _ := runPipe(t, "pahole", pipeData, pargs...)
	got, gerr, gcode := runPipe(t, "", pipeData, pargs...)
	if got != want || want != "" || !strings.Contains(werr, "can't seek backward") {
		t.Errorf("back on a pipe: stdout %q, pahole's %q (%q)", got, want, werr)
	}
	if gcode != 1 || !strings.Contains(gerr, "<stdin>: offset 0x30: --seek_bytes=8: can't go back in the input to offset 0x8") {
		t.Errorf("back on a pipe: exit %d, stderr %q", gcode, gerr)
	}
	// A data file that cannot be opened: pahole's message and status.
	args := []string{"-F", "dwarf", obj, "-C", typed, "--prettify", filepath.Join(dir, "nosuch")}
	_, werr, wcode := runPaholeTool(t, "pahole", "", args...)
	_, gerr, gcode = runPaholeDeadline(t, args...)
	if gerr != werr || gcode != wcode {
		t.Errorf("missing data file: exit %d, %q; pahole: exit %d, %q", gcode, gerr, wcode, werr)
	}
}
