package cdump

import (
	"strconv"
	"testing"
)

// TestAppendU checks the decimal formatter against strconv at every digit
// count boundary and on a spread of values.
func TestAppendU(t *testing.T) {
	vals := []uint32{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 4294967295, 4294967294, 1 << 31}
	for p := uint32(1); p < 1e9; p *= 10 {
		vals = append(vals, p-1, p, p+1, 10*p-1)
	}
	for v := uint32(0); v < 1<<32-7919*4096; v += 7919 * 4096 {
		vals = append(vals, v)
	}
	for _, v := range vals {
		pre := []byte("x=")
		if got, want := string(appendU(pre, v)), "x="+strconv.FormatUint(uint64(v), 10); got != want {
			t.Fatalf("appendU(%d) = %q, want %q", v, got, want)
		}
	}
}
