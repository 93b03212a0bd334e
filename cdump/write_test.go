package cdump

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
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
