package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestStdinInputs: "-" and /dev/stdin fed through a pipe are read as the
// file itself is (package input reads a stream whole, once): dump, dump
// --format c, check and layout -F btf of raw BTF and of an ELF with .BTF
// give what they give on the file. (dump - and dump /dev/stdin failed with
// "illegal seek"; layout -F btf /dev/stdin said "no btf type
// information".)
func TestStdinInputs(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "sample.btf")
	elfIn := filepath.Join(dir, "sample.o")
	copyFile(t, filepath.Join(testenv.Root(t), "testdata", "sample.o"), elfIn)
	if out, code := runBtfkit(t, nil, "encode", "-o", raw, elfIn); code != 0 {
		t.Fatalf("encode: %s", out)
	}
	if out, code := runBtfkit(t, nil, "encode", "--in-place", elfIn); code != 0 {
		t.Fatalf("encode --in-place: %s", out)
	}
	cases := [][]string{
		{"dump", "@"},
		{"dump", "--format", "c", "@"},
		{"check", "@"},
		{"layout", "-F", "btf", "@"},
	}
	for _, file := range []string{raw, elfIn} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			want := runWithStdin(t, nil, subst(c, file)...)
			for _, name := range []string{"-", "/dev/stdin"} {
				got := runWithStdin(t, data, subst(c, name)...)
				if c[0] == "check" {
					// check names its input.
					got.out = strings.ReplaceAll(got.out, "standard input", file)
					got.out = strings.ReplaceAll(got.out, "/dev/stdin", file)
				}
				if got != want || want.code != 0 || want.out == "" {
					t.Errorf("btfkit %s (%s piped): exit %d, %q; on the file: exit %d, %d bytes",
						strings.Join(subst(c, name), " "), filepath.Base(file), got.code, trimTo(got.out, 300), want.code, len(want.out))
				}
			}
		}
	}
}

type stdinResult struct {
	out  string
	code int
}

func subst(args []string, file string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "@" {
			a = file
		}
		out[i] = a
	}
	return out
}

// runWithStdin runs btfkit with data on a pipe as standard input (nil:
// none) and returns its standard output and exit status.
func runWithStdin(t *testing.T, data []byte, args ...string) stdinResult {
	t.Helper()
	cmd := exec.Command(testenv.Btfkit(t), args...)
	if data != nil {
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			w.Write(data)
			w.Close()
		}()
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Logf("btfkit %s: %s", strings.Join(args, " "), errb.String())
	}
	return stdinResult{out.String(), code}
}

func trimTo(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
