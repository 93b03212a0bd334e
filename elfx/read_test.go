package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// compressedCopies compiles a corpus file and returns the object and its
// zlib, zstd and legacy .zdebug copies made by objcopy.
func compressedCopies(t *testing.T) (string, map[string]string) {
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	dir := t.TempDir()
	out := map[string]string{}
	for _, z := range []string{"zlib", "zstd", "zlib-gnu"} {
		p := filepath.Join(dir, z+".o")
		testc.Run(t, "objcopy", "--compress-debug-sections="+z, obj, p)
		out[z] = p
	}
	return obj, out
}

// TestDecompress checks that every compressed debug section decompresses
// to the bytes of the uncompressed original, with and without relocation.
func TestDecompress(t *testing.T) {
	obj, copies := compressedCopies(t)
	orig, err := Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	for z, p := range copies {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range orig.Sections {
			if !strings.HasPrefix(s.Name, ".debug_") {
				continue
			}
			cs := f.FindDebug(s.Name)
			if cs == nil {
				t.Fatalf("%s: %s missing", z, s.Name)
			}
			for _, reloc := range []bool{false, true} {
				want, err := orig.Contents(s, reloc)
				if err != nil {
					t.Fatal(err)
				}
				got, err := f.Contents(cs, reloc)
				if err != nil {
					t.Fatalf("%s: %s: %v", z, cs.Name, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: %s (relocated %v): %d bytes differ from the original's %d", z, cs.Name, reloc, len(got), len(want))
				}
			}
			if cs.Flags&elf.SHF_COMPRESSED != 0 || strings.HasPrefix(cs.Name, ".zdebug") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no compressed section", z)
		}
		f.Close()
	}
}

// TestDecompressCorrupt damages compressed sections and checks the errors
// name the section, and that a huge declared size is refused up front
// rather than allocated.
func TestDecompressCorrupt(t *testing.T) {
	_, copies := compressedCopies(t)
	for z, p := range copies {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		s := f.FindDebug(".debug_info")
		hdr := 24
		if z == "zlib-gnu" {
			hdr = 12
		}
		for _, c := range []struct {
			name string
			mod  func(b []byte)
		}{
			{"stream", func(b []byte) {
				for i := hdr; i < hdr+16 && i < int(s.FileSize); i++ {
					b[s.Offset+uint64(i)] ^= 0x5a
				}
			}},
			{"size", func(b []byte) {
				if z == "zlib-gnu" {
					binary.BigEndian.PutUint64(b[s.Offset+4:], 1<<50)
				} else {
					binary.LittleEndian.PutUint64(b[s.Offset+8:], 1<<50)
				}
			}},
		} {
			b := append([]byte(nil), raw...)
			c.mod(b)
			g, err := NewFile(b)
			if err != nil {
				continue // debug/elf itself refused the header: fine
			}
			_, err = g.Contents(g.FindDebug(".debug_info"), true)
			if err == nil {
				t.Errorf("%s %s: no error", z, c.name)
				continue
			}
			if !strings.Contains(err.Error(), "debug_info") {
				t.Errorf("%s %s: error %q does not name the section", z, c.name, err)
			}
		}
	}
}
