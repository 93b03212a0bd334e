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

// runOut runs btfkit with args, standard output going to stdout (nil: a
// pipe), and returns what went to the pipe, standard error and the status.
func runOut(t *testing.T, stdout *os.File, wrap []string, args ...string) ([]byte, string, int) {
	t.Helper()
	argv := append(append(append([]string{}, wrap...), testenv.Btfkit(t)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdout != nil {
		cmd.Stdout = stdout
	}
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), errb.String(), 0
	case errors.As(err, &ee):
		return out.Bytes(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("running %v: %v", argv, err)
	return nil, "", -1
}

// dirHolds fails when dir holds anything but the named files (a temporary
// file left behind).
func dirHolds(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

// TestOutputTargets: `encode -o`, `pahole --btf_encode_detached` and
// `dedup -o` write their output the one same way: the same bytes to a new
// file, to an existing file (whose mode is kept), to /dev/stdout on a pipe
// and to /dev/stdout redirected to a file; and a write that fails half way
// (the file size limit) leaves the earlier file as it was, its mode too,
// and no temporary file.
func TestOutputTargets(t *testing.T) {
	obj := paholeFixture(t, "types.c")
	ref := filepath.Join(t.TempDir(), "ref.btf")
	if _, stderr, code := runOut(t, nil, nil, "encode", "-o", ref, obj); code != 0 {
		t.Fatalf("encode: status %d: %s", code, stderr)
	}
	for _, c := range []struct {
		name string
		args func(out string) []string
	}{
		{"encode -o", func(out string) []string { return []string{"encode", "--features=default", "-o", out, obj} }},
		{"pahole --btf_encode_detached", func(out string) []string {
			return []string{"pahole", "-J", "--btf_features=default", "--btf_encode_detached=" + out, obj}
		}},
		{"dedup -o", func(out string) []string { return []string{"dedup", "-o", out, ref} }},
	} {
		t.Run(strings.Fields(c.name)[0], func(t *testing.T) {
			dir := t.TempDir()
			newFile := filepath.Join(dir, "new.btf")
			if _, stderr, code := runOut(t, nil, nil, c.args(newFile)...); code != 0 {
				t.Fatalf("%s FILE: status %d: %s", c.name, code, stderr)
			}
			want, _ := os.ReadFile(newFile)
			if len(want) < 2048 {
				t.Fatalf("%s wrote %d bytes; the size limit below needs more", c.name, len(want))
			}
			if st, _ := os.Stat(newFile); st.Mode().Perm() != 0o644 {
				t.Errorf("new file has mode %v, want 0644", st.Mode().Perm())
			}

			existing := filepath.Join(dir, "existing.btf")
			os.WriteFile(existing, []byte("earlier output"), 0o600)
			if _, stderr, code := runOut(t, nil, nil, c.args(existing)...); code != 0 {
				t.Fatalf("%s EXISTING: status %d: %s", c.name, code, stderr)
			}
			if got, _ := os.ReadFile(existing); !bytes.Equal(got, want) {
				t.Errorf("existing file: %d bytes, want the %d of a new file", len(got), len(want))
			}
			if st, _ := os.Stat(existing); st.Mode().Perm() != 0o600 {
				t.Errorf("existing 0600 file has mode %v after the write, want it kept", st.Mode().Perm())
			}

			got, stderr, code := runOut(t, nil, nil, c.args("/dev/stdout")...)
			if code != 0 || !bytes.Equal(got, want) {
				t.Errorf("/dev/stdout on a pipe: status %d, %d bytes, want %d: %s", code, len(got), len(want), stderr)
			}

			redirected := filepath.Join(dir, "redirected.btf")
			f, err := os.Create(redirected)
			if err != nil {
				t.Fatal(err)
			}
			_, stderr, code = runOut(t, f, nil, c.args("/dev/stdout")...)
			f.Close()
			if got, _ := os.ReadFile(redirected); code != 0 || !bytes.Equal(got, want) {
				t.Errorf("/dev/stdout redirected to a file: status %d, %d bytes, want %d: %s", code, len(got), len(want), stderr)
			}

			// 1 KiB at most per file written: the temporary file fails
			// half way with EFBIG (Go ignores SIGXFSZ).
			_, stderr, code = runOut(t, nil, []string{"prlimit", "--fsize=1024"}, c.args(existing)...)
			if code != 1 || !strings.Contains(stderr, existing+": write: file too large") {
				t.Errorf("write past the size limit: status %d, stderr %q; want 1 and an error naming the file", code, stderr)
			}
			if got, _ := os.ReadFile(existing); !bytes.Equal(got, want) {
				t.Errorf("the earlier file changed after a failed write")
			}
			if st, _ := os.Stat(existing); st.Mode().Perm() != 0o600 {
				t.Errorf("the earlier file's mode changed to %v after a failed write", st.Mode().Perm())
			}
			dirHolds(t, dir, "existing.btf", "new.btf", "redirected.btf")
		})
	}
}
