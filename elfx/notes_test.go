package elfx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestNote: the notes gcc and ld put in an executable, as readelf -n
// lists them: the build ID (in a section aligned to 4) and the GNU
// property note (in .note.gnu.property, aligned to 8, where the
// descriptor starts at a multiple of 8). A note section cut short is an
// error naming the section and the note's offset.
func TestNote(t *testing.T) {
	testc.Require(t, "gcc", "readelf", "objcopy")
	dir := t.TempDir()
	src := filepath.Join(dir, "n.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "n")
	testc.Run(t, "gcc", "-O2", "-Wl,--build-id=sha1", "-o", exe, src)
	// readelf -n: "Build ID: <hex>".
	var wantID string
	for _, l := range strings.Split(string(testc.Output(t, "readelf", "-n", exe)), "\n") {
		if _, id, ok := strings.Cut(l, "Build ID: "); ok {
			wantID = strings.TrimSpace(id)
		}
	}
	if wantID == "" {
		t.Fatal("readelf -n shows no build ID")
	}
	f, err := Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const ntGNUBuildID, ntGNUProperty = 3, 5
	id, found, err := f.Note("GNU", ntGNUBuildID)
	if err != nil || !found {
		t.Fatalf("build ID note: found %v, %v", found, err)
	}
	if got := strings.ToLower(bytesHex(id)); got != wantID {
		t.Errorf("build ID %s, readelf: %s", got, wantID)
	}
	if s := f.Section(".note.gnu.property"); s != nil && s.Addralign == 8 {
		prop, found, err := f.Note("GNU", ntGNUProperty)
		if err != nil || !found || len(prop)%8 != 0 || len(prop) == 0 {
			t.Errorf("GNU property note: %d bytes, found %v, %v", len(prop), found, err)
		}
	}
	if _, found, err := f.Note("Linux", 0x101); found || err != nil {
		t.Errorf("Linux note in a user program: found %v, %v", found, err)
	}

	// A note whose descriptor runs past its section.
	bad := new(bytes.Buffer)
	for _, v := range []uint32{6, 64, 1} { // namesz, descsz, type
		binary.Write(bad, binary.LittleEndian, v)
	}
	bad.WriteString("Linux\x00\x00\x00")
	raw := filepath.Join(dir, "note.bin")
	if err := os.WriteFile(raw, bad.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken")
	testc.Run(t, "objcopy", "--add-section", ".note.broken="+raw, exe, broken)
	g, err := Open(broken)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	_, _, err = g.Note("Linux", 0x101)
	var e *Error
	if !errors.As(err, &e) || e.Section != ".note.broken" || !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated note: %v, want an *Error naming .note.broken, ErrTruncated", err)
	}
}

func bytesHex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
