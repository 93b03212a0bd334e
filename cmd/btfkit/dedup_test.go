package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestDedupCommandEmbeddedTwice: 'btfkit dedup' over an archive of two
// copies of the vmlinux BTF gives its 95,265 types back ('btfkit diff'
// finds nothing), the same bytes for any -j, and diff exits 1 on a real
// difference.
func TestDedupCommandEmbeddedTwice(t *testing.T) {
	ref := func(name string) string { return testenv.Reference(t, "debian-6.1.0-57-cloud/"+name) }
	embedded := ref("embedded.btf")
	data, err := os.ReadFile(embedded)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	archive := filepath.Join(dir, "2x.btf")
	if err := os.WriteFile(archive, append(append([]byte(nil), data...), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.btf")
	if _, stderr, code := btfkit(t, "dedup", "-o", out, archive); code != 0 {
		t.Fatalf("dedup: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := btfkit(t, "diff", out, embedded)
	if code != 0 {
		t.Fatalf("diff against embedded.btf: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "total") || !strings.Contains(stdout, "95265     95265") {
		t.Errorf("diff output lacks the totals:\n%s", stdout)
	}

	// Parallelism does not change the bytes; nor does splitting the same
	// members over several input files.
	want, _ := os.ReadFile(out)
	for _, args := range [][]string{
		{"-j", "1", archive},
		{"-j", "8", embedded, archive, embedded},
	} {
		o := filepath.Join(dir, "j.btf")
		if _, stderr, code := btfkit(t, append([]string{"dedup", "-o", o}, args...)...); code != 0 {
			t.Fatalf("dedup %v: exit %d: %s", args, code, stderr)
		}
		if got, _ := os.ReadFile(o); !bytes.Equal(got, want) {
			t.Errorf("dedup %v: output differs from -j default", args)
		}
	}

	// A real difference: exit 1 and a listing. pahole 1.32 writes one
	// ARRAY per dimension where Debian's pahole 1.24 folded them.
	p132 := testenv.Reference(t, "pahole-1.32/debian-6.1.0-57-cloud.btf")
	stdout, _, code = btfkit(t, "diff", "--exclude-kinds", "FUNC,FUNC_PROTO,VAR,DATASEC", out, p132)
	if code != 1 || !strings.Contains(stdout, "# count ARRAY") {
		t.Errorf("diff --exclude-kinds FUNC,FUNC_PROTO,VAR,DATASEC against pahole 1.32: exit %d, want 1 and '# count ARRAY':\n%.2000s", code, stdout)
	}
	// Kinds the two encoders agree on compare equal.
	_, _, code = btfkit(t, "diff", "--kinds", "INT,FLOAT,ENUM,ENUM64,FWD", out, p132)
	if code != 0 {
		t.Errorf("diff --kinds INT,FLOAT,ENUM,ENUM64,FWD against pahole 1.32: exit %d, want 0", code)
	}
}

// TestDedupCommandBadInput: a broken input is a clear error, exit 1, and
// an existing output file is left as it was.
func TestDedupCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.btf")
	os.WriteFile(bad, []byte("\x9f\xeb\x01\x00\x18\x00\x00\x00garbage"), 0o644)
	out := filepath.Join(dir, "out.btf")
	os.WriteFile(out, []byte("old"), 0o644)
	_, stderr, code := btfkit(t, "dedup", "-o", out, bad)
	if code != 1 || !strings.Contains(stderr, "bad.btf") {
		t.Errorf("exit %d, stderr %q: want 1 and the file named", code, stderr)
	}
	if got, _ := os.ReadFile(out); string(got) != "old" {
		t.Errorf("output file changed to %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".out.btf.tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	if _, _, code := btfkit(t, "diff", "--kinds", "BOGUS", bad, bad); code != 1 {
		t.Errorf("diff --kinds BOGUS: exit %d, want 1", code)
	}
}
