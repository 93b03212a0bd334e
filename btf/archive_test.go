package btf

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// archiveSources writes n small, distinct C files into dir and returns
// their paths followed by the corpus files.
func archiveSources(t *testing.T, dir string, n int) []string {
	t.Helper()
	var srcs []string
	for i := 0; i < n; i++ {
		src := fmt.Sprintf(`struct arc%[1]d_s { int a; char b[%[1]d + 1]; long c%[1]d : %[2]d; };
enum arc%[1]d_e { ARC%[1]d_A = %[1]d, ARC%[1]d_B };
typedef struct arc%[1]d_s arc%[1]d_t;
arc%[1]d_t arc%[1]d_g;
enum arc%[1]d_e arc%[1]d_ge;
int arc%[1]d_f(struct arc%[1]d_s *p, int k) { return p->a + k + %[1]d; }
`, i, i%31+1)
		p := filepath.Join(dir, fmt.Sprintf("gen%02d.c", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, p)
	}
	return append(srcs, testc.CorpusFiles(t)...)
}

// TestArchiveFromLdR compiles 20+ objects with gcc -gbtf, links them with
// ld -r (which concatenates their .BTF sections into a BTF archive) and
// checks that LoadArchive reads exactly one member per object, each equal
// to that object's own .BTF: same types and strings field by field, and
// the same bytes when written back with Marshal.
func TestArchiveFromLdR(t *testing.T) {
	testc.Require(t, "gcc", "ld")
	dir := t.TempDir()
	srcs := archiveSources(t, dir, 21)
	var objs []string
	for _, src := range srcs {
		objs = append(objs, testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf", "-O2"}}))
	}
	all := filepath.Join(dir, "all.o")
	// -z muldefs: corpus files are free to define the same global names.
	testc.Run(t, "ld", append([]string{"-r", "-z", "muldefs", "-o", all}, objs...)...)

	if _, err := LoadFile(all, nil); err == nil {
		t.Fatalf("LoadFile(%s) read an archive of %d blobs as one BTF", all, len(objs))
	}
	members, err := LoadArchive(all, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != len(objs) {
		t.Fatalf("LoadArchive: %d members, want %d (one per object)", len(members), len(objs))
	}
	for i, obj := range objs {
		raw, _, err := ReadBTFBytes(obj)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse(raw, nil)
		if err != nil {
			t.Fatalf("%s: %v", obj, err)
		}
		if d := specDiff(members[i], want); d != "" {
			t.Errorf("member %d vs %s: %s", i, filepath.Base(srcs[i]), d)
		}
		if got := members[i].Marshal(want.ByteOrder()); !bytes.Equal(got, raw) {
			t.Errorf("member %d: Marshal gives %d bytes that differ from %s's .BTF (%d bytes)", i, len(got), filepath.Base(obj), len(raw))
		}
	}
}

// specDiff compares two Specs' own types and strings field by field and
// describes the first difference, or returns "".
func specDiff(a, b *Spec) string {
	if a.startID != b.startID || a.startStr != b.startStr {
		return fmt.Sprintf("start id/string offset %d/%d vs %d/%d", a.startID, a.startStr, b.startID, b.startStr)
	}
	if len(a.hdrs) != len(b.hdrs) {
		return fmt.Sprintf("%d types vs %d", len(a.hdrs), len(b.hdrs))
	}
	for i := range a.hdrs {
		id := a.startID + TypeID(i)
		if a.hdrs[i] != b.hdrs[i] {
			return fmt.Sprintf("type [%d] header %+v vs %+v", id, a.hdrs[i], b.hdrs[i])
		}
		ea, eb := a.words[a.extStart[i]:a.extStart[i+1]], b.words[b.extStart[i]:b.extStart[i+1]]
		if !slices.Equal(ea, eb) {
			return fmt.Sprintf("type [%d] trailing words %v vs %v", id, ea, eb)
		}
	}
	if !bytes.Equal(a.strs, b.strs) {
		return fmt.Sprintf("string tables differ (%d vs %d bytes)", len(a.strs), len(b.strs))
	}
	return ""
}
