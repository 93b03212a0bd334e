package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestCompressedSectionsThatLie: a compressed section whose header
// declares fewer bytes than its data holds stops at the declared size
// plus one byte (an error, not the whole stream in memory), and one
// that declares more than its format can expand to is refused before
// anything is allocated; both errors name the section.
func TestCompressedSectionsThatLie(t *testing.T) {
	_, copies := compressedCopies(t)
	for _, z := range []string{"zlib", "zstd"} {
		raw, err := os.ReadFile(copies[z])
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		s := f.FindDebug(".debug_info")
		if s.Flags&elf.SHF_COMPRESSED == 0 {
			t.Fatalf("%s: .debug_info is not compressed", z)
		}
		ratio := uint64(maxRatio)
		if z == "zstd" {
			ratio = maxZstdRatio
		}
		for _, c := range []struct {
			size uint64
			want string
		}{
			{s.Size / 2, "decompressed more than"},
			{s.Size + 1, "header says"},
			{(s.FileSize-24)*ratio + 4097, "more than"},
		} {
			b := append([]byte(nil), raw...)
			binary.LittleEndian.PutUint64(b[s.Offset+8:], c.size)
			g, err := NewFile(b)
			if err != nil {
				t.Fatal(err)
			}
			_, err = g.Contents(g.FindDebug(".debug_info"), false)
			var e *Error
			if !errors.As(err, &e) || e.Section != ".debug_info" || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s declaring %d of %d bytes: %v, want an *Error about .debug_info saying %q", z, c.size, s.Size, err, c.want)
			}
		}
	}
}

// TestCompressedFileBounds: Open holds no more of a compressed file than
// its size allows: a stream that is not ELF stops at its first bytes, an
// ELF stream decompressing past 1032 times the file (and 64 MiB) and an
// xz header asking for a 4 GiB dictionary are errors.
func TestCompressedFileBounds(t *testing.T) {
	testc.Require(t, "xz", "gzip")
	dir := t.TempDir()
	compress := func(name string, tool []string, data []byte) string {
		t.Helper()
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", tool, err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zeros := make([]byte, 80<<20)
	notELF := compress("zeros.ko.gz", []string{"gzip", "-1", "-c"}, zeros)
	if _, err := Open(notELF); !errors.Is(err, ErrNotELF) {
		t.Errorf("gzip of zeros: %v, want ErrNotELF", err)
	}
	copy(zeros, elf.ELFMAG)
	bomb := compress("bomb.ko.xz", []string{"xz", "-1", "-c"}, zeros)
	var e *Error
	if _, err := Open(bomb); !errors.As(err, &e) || e.Path != bomb || !strings.Contains(err.Error(), "decompresses to more than") {
		t.Errorf("xz of 80 MiB from a few KiB: %v, want an *Error naming the file", err)
	}

	// The first block's LZMA2 dictionary byte, set to 40 (4 GiB - 1),
	// with the block header's CRC32 fixed.
	small := compress("small.ko.xz", []string{"xz", "--check=crc32", "--lzma2=dict=1MiB", "-c"}, zeros[:4096])
	b, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	hsize := (int(b[12]) + 1) * 4
	hdr := b[12 : 12+hsize]
	if hdr[1] != 0 || hdr[2] != 0x21 || hdr[3] != 1 {
		t.Fatalf("unexpected xz block header % x", hdr)
	}
	hdr[4] = 40
	binary.LittleEndian.PutUint32(hdr[hsize-4:], crc32IEEE(hdr[:hsize-4]))
	big := filepath.Join(dir, "bigdict.ko.xz")
	os.WriteFile(big, b, 0o644)
	if _, err := Open(big); !errors.As(err, &e) || !strings.Contains(err.Error(), "LZMA2 dictionary of 4294967295 bytes") {
		t.Errorf("xz asking for a 4 GiB dictionary: %v", err)
	}
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
