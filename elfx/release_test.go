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
	img := make([]byte, 64+size)
	copy(img, "\x7fELF\x02\x01\x01")
	binary.LittleEndian.PutUint16(img[16:], 1)  // ET_REL
	binary.LittleEndian.PutUint16(img[18:], 62) // x86-64
	binary.LittleEndian.PutUint32(img[20:], 1)
	binary.LittleEndian.PutUint16(img[52:], 64) // e_ehsize
	binary.LittleEndian.PutUint16(img[58:], 64) // e_shentsize
	for i := 64; i < len(img); i += 4096 {
		img[i] = byte(i >> 12)
	}
	path := filepath.Join(t.TempDir(), "big.o")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
