package offheap

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// rssAnon reads this process's RssAnon from /proc (KiB), or -1.
func rssAnon(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "RssAnon:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return -1
}

// A mapped slice reads as zeros, holds what is appended up to its
// capacity, costs resident memory only for the pages written, and gives
// them back on Free.
func TestSliceMapped(t *testing.T) {
	const n = 64 << 20 / 4 // 64 MiB of uint32
	before := rssAnon(t)
	s, r := Slice[uint32](n)
	if r == nil {
		t.Skip("no anonymous mappings here")
	}
	if len(s) != 0 || cap(s) != n {
		t.Fatalf("len %d cap %d, want 0 and %d", len(s), cap(s), n)
	}
	for i := range 1 << 20 { // 4 MiB written
		s = append(s, uint32(i)*7)
	}
	for i, v := range s {
		if v != uint32(i)*7 {
			t.Fatalf("s[%d] = %d", i, v)
		}
	}
	if z := s[len(s):cap(s)]; z[0] != 0 || z[len(z)-1] != 0 {
		t.Fatal("unwritten capacity does not read as zero")
	}
	if before >= 0 {
		grew := rssAnon(t) - before
		if grew < 3<<10 || grew > 32<<10 {
			t.Errorf("resident memory grew by %d KiB for 4 MiB written of a 64 MiB slice", grew)
		}
	}
	r.Free()
	r.Free() // twice does nothing
	if after := rssAnon(t); before >= 0 && after-before > 2<<10 {
		t.Errorf("resident memory %d KiB above the start after Free", after-before)
	}
}

// Small requests are ordinary slices, without a region to free.
func TestSliceSmall(t *testing.T) {
	s, r := Slice[uint64](16)
	if r != nil || cap(s) != 16 || len(s) != 0 {
		t.Fatalf("got cap %d, region %v", cap(s), r)
	}
	var nilRegion *Region
	nilRegion.Free()
}
