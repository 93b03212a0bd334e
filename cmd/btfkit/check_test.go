package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// runBtfkit runs the command and returns its output and exit status.
func runBtfkit(t *testing.T, wrap []string, args ...string) (string, int) {
	t.Helper()
	bin := testenv.Btfkit(t)
	argv := append(append(append([]string{}, wrap...), bin), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	}
	t.Fatalf("running %v: %v", argv, err)
	return "", -1
}

// writeTestBTF writes a small valid BTF and a copy whose struct is too
// small for its second member.
func writeTestBTF(t *testing.T) (good, bad string) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	p := s.Add("", btf.KindPtr, 0, false, uint32(i))
	st := s.Add("s", btf.KindStruct, 2, false, 16, s.AddString("a"), uint32(i), 0, s.AddString("b"), uint32(p), 64)
	dir := t.TempDir()
	good = filepath.Join(dir, "good.btf")
	if err := os.WriteFile(good, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	ty := s.Type(st)
	s.SetRaw(st, ty.NameOff(), ty.Info(), 8, ty.Extra()...)
	bad = filepath.Join(dir, "bad.btf")
	if err := os.WriteFile(bad, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return good, bad
}

func TestCheckCommand(t *testing.T) {
	good, bad := writeTestBTF(t)

	out, code := runBtfkit(t, nil, "check", good)
	if code != 0 || out != good+": OK (3 types)\n" {
		t.Errorf("valid input: exit %d, output %q", code, out)
	}

	out, code = runBtfkit(t, nil, "check", good, bad)
	want := bad + ": type [3] STRUCT 's': member 1 'b' at bit 64 of 8 bytes past struct size 8 bytes (member-bounds)\n" + bad + ": 1 problem\n"
	if code != 1 || !strings.Contains(out, want) || !strings.HasPrefix(out, good+": OK") {
		t.Errorf("invalid input: exit %d, output %q, want it to contain %q", code, out, want)
	}

	out, code = runBtfkit(t, nil, "check", filepath.Join(t.TempDir(), "missing.btf"))
	if code != 1 || !strings.Contains(out, "no such file") {
		t.Errorf("missing input: exit %d, output %q", code, out)
	}

	out, code = runBtfkit(t, nil, "check", "--kernel", good, bad)
	if strings.Contains(out, "kernel: cannot ask") {
		testenv.SkipPartOrFail(t, "kernel half: %s", out)
		return
	}
	if code != 1 || !strings.Contains(out, good+": kernel: accepted\n") ||
		!strings.Contains(out, bad+": kernel: rejected (invalid argument") ||
		!strings.Contains(out, "Member exceeds struct_size") {
		t.Errorf("--kernel: exit %d, output:\n%s", code, out)
	}
}

// TestCheckCommandNotPermitted runs 'check --kernel' without privileges:
// it must say so and exit 2 when the input itself is valid.
func TestCheckCommandNotPermitted(t *testing.T) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil || os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "needs root and setpriv (util-linux) to drop privileges")
	}
	good, _ := writeTestBTF(t)
	bin := testenv.Btfkit(t)
	// The unprivileged user must reach the binary and the input.
	dir, err := os.MkdirTemp("", "btfkit-check-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	good = filepath.Join(dir, "good.btf")
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(bin)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wrap := []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all"}
	out, code := runBtfkit(t, wrap, "check", "--kernel", good)
	if strings.Contains(out, "kernel: accepted") {
		// A plain skip: whether unprivileged bpf() is allowed is the
		// kernel's setting (kernel.unprivileged_bpf_disabled), not
		// something CI installs.
		t.Skip("SKIP: unprivileged bpf() is allowed here")
	}
	if code != 2 || !strings.Contains(out, good+": OK (3 types)\n") || !strings.Contains(out, "kernel: cannot ask: bpf(BPF_BTF_LOAD) not permitted here") {
		t.Errorf("unprivileged --kernel: exit %d, output %q", code, out)
	}
}
