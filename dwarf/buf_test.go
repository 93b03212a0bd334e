package dwarf

import "testing"

// TestStrlen checks the word-at-a-time strlen against the definition,
// for every alignment and for strings with no terminator.
func TestStrlen(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefg", "abcdefgh", "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijkl"} {
		for pad := 0; pad < 9; pad++ {
			b := append(append([]byte("xxxxxxxxx"[:pad]), s...), 0, 'q', 0)
			if got := strlen(b, pad); got != len(s) {
				t.Errorf("%q pad %d: %d", s, pad, got)
			}
			if got := strlen(b[:pad+len(s)], pad); got != -1 {
				t.Errorf("%q pad %d unterminated: %d", s, pad, got)
			}
		}
	}
}
