package funcvar

import "testing"

// TestPieceFields: which bytes of each register's word an aggregate's
// pieces start at, over all entries of a location list; a leading piece
// only moves the offset; a constant location records nothing.
func TestPieceFields(t *testing.T) {
	for _, tc := range []struct {
		exprs         []string
		first, second uint64
	}{
		{[]string{"\x93\x08\x55\x93\x08"}, 0, 1},                                    // piece 8, rdi piece 8
		{[]string{"\x55\x93\x08"}, 1, 0},                                            // rdi piece 8
		{[]string{"\x55\x93\x08\x54\x93\x08"}, 1, 1},                                // rdi piece 8, rsi piece 8
		{[]string{"\x55\x93\x04\x54\x93\x04"}, 1 | 1<<4, 0},                         // two ints in one word
		{[]string{"\x55\x93\x08", "\x93\x08\x54\x93\x08"}, 1, 1},                    // a list: a, then b
		{[]string{"\x30\x93\x08\x55\x93\x08"}, 0, 0},                                // lit0 first: a constant
		{[]string{"\x93\x04\x55\x93\x04\x54\x93\x08"}, 1 << 4, 1 << 0},              // hole of 4, then two
		{[]string{"\x55\x93\x08\x93\x08\x93\x08\x54\x93\x08"}, 1, 1 | 1<<8 | 1<<16}, // beyond 16 bytes
	} {
		var l Location
		for n, e := range tc.exprs {
			l.Add([]byte(e), n, 8)
		}
		if l.firstPieces != tc.first || l.secondPieces != tc.second {
			t.Errorf("%q: first %#x second %#x, want %#x %#x", tc.exprs, l.firstPieces, l.secondPieces, tc.first, tc.second)
		}
	}
}
