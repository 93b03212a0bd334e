package main

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestPointerExpansionBound: `pahole -p -C sk_buff` of the Debian 6.1
// kernel's BTF, whose pointers lead from struct to struct along ever new
// paths, does not end with pahole 1.32 (tens of GB). btfkit stops printing
// pointed-to types in place after layout.DefaultMaxPointerExpansions and
// prints the rest as pointers, says so on standard error, and exits 0 with
// a few MB; without the bound (layout --max-expansions -1) its output is
// pahole 1.32's, compared on the first 16 MiB.
func TestPointerExpansionBound(t *testing.T) {
	testc.Require(t, "pahole")
	e := testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf")

	out, code := runBtfkitOut(t, "pahole", "-F", "btf", "-p", "-C", "sk_buff", e)
	if code != 0 || len(out) > 32<<20 || !strings.HasPrefix(out, "struct sk_buff {") || !strings.HasSuffix(out, "};\n\n") {
		t.Errorf("pahole -p -C sk_buff: exit %d, %d bytes", code, len(out))
	}
	note, ncode := runBtfkit(t, nil, "layout", "-F", "btf", "-p", "--max-expansions", "100", "-C", "sk_buff", e)
	if ncode != 0 || !strings.Contains(note, "btfkit: -p: sk_buff: printed 100 pointed-to types in place") {
		t.Errorf("layout -p --max-expansions 100: exit %d, no note on standard error:\n%.300s", ncode, note)
	}

	const prefix = 16 << 20
	ours := headOf(t, prefix, testenv.Btfkit(t), "layout", "-F", "btf", "-p", "--max-expansions", "-1", "-C", "sk_buff", e)
	theirs := headOf(t, prefix, "pahole", "-F", "btf", "-p", "-C", "sk_buff", e)
	if len(theirs) < prefix || !bytes.Equal(ours, theirs) {
		t.Errorf("layout -p --max-expansions -1: the first %d bytes differ from pahole 1.32's (%d and %d bytes read)", prefix, len(ours), len(theirs))
	}
}

// headOf runs a command and returns the first n bytes of its standard
// output, then kills it.
func headOf(t *testing.T, n int, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, n)
	got, _ := io.ReadFull(bufio.NewReaderSize(stdout, 1<<20), buf)
	cmd.Process.Kill()
	cmd.Wait()
	return buf[:got]
}
