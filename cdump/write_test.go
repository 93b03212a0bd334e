package cdump

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

func smallSpec(fieldName string) *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("s", btf.KindStruct, 1, false, 4, s.AddString(fieldName), uint32(i), 0)
	return s
}

// TestWriteFileUnchanged checks that an unchanged header keeps its bytes,
// mtime and inode, and that a changed one is replaced by rename with no
// temporary file left behind.
func TestWriteFileUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vmlinux.h")
	changed, err := WriteFile(path, smallSpec("a"), Options{})
	if err != nil || !changed {
		t.Fatalf("first write: changed=%v err=%v", changed, err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	fi1, _ := os.Stat(path)

	changed, err = WriteFile(path, smallSpec("a"), Options{})
	if err != nil || changed {
		t.Fatalf("same header: changed=%v err=%v", changed, err)
	}
	fi2, _ := os.Stat(path)
	if !fi2.ModTime().Equal(old) || !os.SameFile(fi1, fi2) {
		t.Errorf("unchanged header was touched: mtime %v -> %v, same inode %v", old, fi2.ModTime(), os.SameFile(fi1, fi2))
	}

	changed, err = WriteFile(path, smallSpec("b"), Options{})
	if err != nil || !changed {
		t.Fatalf("new header: changed=%v err=%v", changed, err)
	}
	got, _ := os.ReadFile(path)
	want, _ := Bytes(smallSpec("b"), Options{})
	if string(got) != string(want) {
		t.Errorf("changed header not written:\n%s", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries, want only vmlinux.h", len(ents))
	}
}

// TestWriteFileKeepsMode checks that a rewritten header keeps the mode of
// the file it replaces.
func TestWriteFileKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.h")
	os.WriteFile(path, []byte("old"), 0o600)
	if _, err := WriteFile(path, smallSpec("a"), Options{}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestDeterministic: the ordering goroutine and the printer hand over
// batches; the header must not depend on how they interleave.
func TestDeterministic(t *testing.T) {
	path := testenv.Reference(t, "host-6.18/vmlinux.btf")
	s, err := btf.LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Bytes(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 4
	if testing.Short() {
		n = 1
	}
	for i := 0; i < n; i++ {
		var buf bytes.Buffer
		if err := Write(&buf, s, Options{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), first) {
			t.Fatalf("run %d: Write differs from Bytes", i)
		}
	}
}

// TestRoots: with Roots only those types and what they need are printed.
func TestRoots(t *testing.T) {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("unused", btf.KindStruct, 1, false, 4, s.AddString("u"), uint32(i), 0)
	td := s.Add("num_t", btf.KindTypedef, 0, false, uint32(i))
	root := s.Add("used", btf.KindStruct, 1, false, 4, s.AddString("n"), uint32(td), 0)
	got, err := Bytes(s, Options{Bare: true, Roots: []btf.TypeID{root}})
	if err != nil {
		t.Fatal(err)
	}
	want := "typedef int num_t;\n\nstruct used {\n\tnum_t n;\n};\n\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
