package elfx

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rssFile is the process's resident file-backed memory in bytes
// (RssFile in /proc/self/status), or -1 when the system does not say.
func rssFile(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "RssFile:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	return -1
}

// TestRelease: releasing part of a mapped file drops its pages from the
// process's resident memory, keeps the bytes readable and unchanged, and
// leaves alone what is not a view of the mapping.
func TestRelease(t *testing.T) {
	const size = 48 << 20
	img, f := bigELF(t, size, func(i int) byte {
		if i%4096 == 64 {
			return byte(i >> 12)
		}
		return 0
	})
	data := f.Bytes()
	sum := 0
	for i := 0; i < len(data); i += 4096 {
		sum += int(data[i])
	}
	if sum == 0 {
		t.Fatal("the mapping reads as zeros")
	}
	before := rssFile(t)
	if before < 0 {
		t.Skip("SKIP: /proc/self/status has no RssFile")
	}
	f.Release(append([]byte(nil), data[64:]...)) // a copy: not the mapping
	f.Release(data[64:])
	after := rssFile(t)
	if drop := before - after; drop < size*3/4 {
		t.Errorf("releasing %d MiB of the mapping lowered RssFile by %d KiB (from %d KiB)", size>>20, drop>>10, before>>10)
	}
	if !bytes.Equal(data, img) {
		t.Fatal("the bytes changed after Release")
	}
	// Reading them faulted them back in.
	if back := rssFile(t); back-after < size*3/4 {
		t.Errorf("reading the released pages again raised RssFile by only %d KiB", (back-after)>>10)
	}
}

// TestReadView: ReadView gives the bytes of a view of the mapping, up to
// the end of the view, without making the pages it reads resident; and
// copies from memory what is not a view of the mapping.
func TestReadView(t *testing.T) {
	const size = 48 << 20
	img, f := bigELF(t, size, func(i int) byte { return byte(i * 7 >> 3) })
	view := f.Bytes()[100 : 100+size-200] // as a section would be
	want := img[100 : 100+size-200]
	before := rssFile(t)
	var p [64]byte
	for off := 0; off < len(view); off += 64 << 10 {
		n := f.ReadView(p[:], view, off)
		if n != min(len(p), len(view)-off) || !bytes.Equal(p[:n], want[off:off+n]) {
			t.Fatalf("ReadView at %d: %d bytes %x, want %x", off, n, p[:n], want[off:min(off+len(p), len(want))])
		}
	}
	if after := rssFile(t); before >= 0 && after-before > 4<<20 {
		t.Errorf("reading 64 bytes every 64 KiB of %d MiB raised RssFile by %d KiB", size>>20, (after-before)>>10)
	}
	for _, off := range []int{len(view) - 10, len(view) - 1, len(view), len(view) + 5, -1} {
		n := f.ReadView(p[:], view, off)
		wantN := max(0, min(len(p), len(view)-off))
		if off < 0 {
			wantN = 0
		}
		if n != wantN || (n > 0 && !bytes.Equal(p[:n], want[off:off+n])) {
			t.Errorf("ReadView at %d of %d: %d bytes, want %d", off, len(view), n, wantN)
		}
	}
	// Not a view of the mapping: copied.
	own := []byte("not the file's bytes")
	if n := f.ReadView(p[:], own, 4); n != len(own)-4 || string(p[:n]) != string(own[4:]) {
		t.Errorf("ReadView of another slice: %q", p[:n])
	}
}

// bigELF writes an ELF header (an x86-64 relocatable file without
// sections) followed by size bytes, byte i of the file being fill(i), and
// opens it (mapped); it returns the image written and the file.
func bigELF(t *testing.T, size int, fill func(i int) byte) ([]byte, *File) {
	t.Helper()
	img := make([]byte, 64+size)
	copy(img, "\x7fELF\x02\x01\x01")
	binary.LittleEndian.PutUint16(img[16:], 1)  // ET_REL
	binary.LittleEndian.PutUint16(img[18:], 62) // x86-64
	binary.LittleEndian.PutUint32(img[20:], 1)
	binary.LittleEndian.PutUint16(img[52:], 64) // e_ehsize
	binary.LittleEndian.PutUint16(img[58:], 64) // e_shentsize
	for i := 64; i < len(img); i++ {
		img[i] = fill(i)
	}
	path := filepath.Join(t.TempDir(), "big.o")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return img, f
}
