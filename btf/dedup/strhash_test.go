package dedup

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestHashCString: hashCString finds the string bytes.IndexByte finds, and
// hashes it as strHash hashes the same string, for every length around
// the 8-byte words and NULs anywhere (and none).
func TestHashCString(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 40; n++ {
		for trial := 0; trial < 200; trial++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(1 + r.IntN(255))
			}
			// High bytes next to the NUL: the borrow trick's false hits.
			if n > 0 && trial%3 == 0 {
				b[r.IntN(n)] = 0
			}
			if n > 1 && trial%5 == 0 {
				b[r.IntN(n)] = 0x80 | byte(r.IntN(128))
				b[r.IntN(n)] = 0x01
			}
			want := bytes.IndexByte(b, 0)
			if want < 0 {
				want = len(b)
			}
			got, h := hashCString(b)
			if got != want {
				t.Fatalf("%x: length %d, want %d", b, got, want)
			}
			if hs := strHash(string(b[:want])); hs != h {
				t.Fatalf("%x: hashCString's hash %#x, strHash's %#x", b, h, hs)
			}
		}
	}
}

// TestInternerCString: addCString and add agree on offsets, each string
// is in the table once, whatever the order and the table's growth.
func TestInternerCString(t *testing.T) {
	x := newInterner(4, true)
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"a", "ab", "abcdefgh", "abcdefghi", "task_struct", "next", "prev", "abcdefg"}
	for i := 0; i < 3000; i++ {
		names = append(names, string(rune('a'+r.IntN(26)))+string(rune('a'+r.IntN(26)))+string(rune('a'+r.IntN(26))))
	}
	seen := map[string]uint32{}
	for i := 0; i < 20000; i++ {
		s := names[r.IntN(len(names))]
		var off uint32
		if i%2 == 0 {
			off = x.add(s)
		} else {
			off, _ = x.addCString(append([]byte(s), 0, 'z', 'z'))
		}
		if o, ok := seen[s]; ok && o != off {
			t.Fatalf("%q at %d, earlier at %d", s, off, o)
		}
		seen[s] = off
		if got := string(x.strs[off : int(off)+len(s)]); got != s || x.strs[int(off)+len(s)] != 0 {
			t.Fatalf("%q: the table has %q at %d", s, got, off)
		}
	}
	if want := 1 + func() int {
		n := 0
		for s := range seen {
			n += len(s) + 1
		}
		return n
	}(); len(x.strs) != want {
		t.Fatalf("table of %d bytes, want %d (each string once)", len(x.strs), want)
	}
}

// TestInternerAt: at finds a string only at the offset where the table
// holds it, with its length, across word boundaries and prefixes.
func TestInternerAt(t *testing.T) {
	x := newInterner(4, true)
	names := []string{"a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnopq", "task_struct", "task_struc", "b"}
	offs := map[string]uint32{}
	for _, s := range names {
		offs[s] = x.add(s)
	}
	for _, s := range names {
		for _, tail := range []string{"", "xyzxyzxyzxyz"} {
			b := append(append([]byte(s), 0), tail...)
			for _, o := range names {
				got := x.at(offs[o], b)
				want := -1
				if o == s {
					want = len(s)
				}
				if got != want {
					t.Errorf("at(offset of %q, %q) = %d, want %d", o, s, got, want)
				}
			}
			// Offsets inside strings and past the end: no match
			// unless the suffix there is the string.
			for off := uint32(0); off <= uint32(len(x.strs)); off++ {
				got := x.at(off, b)
				if got >= 0 && (int(off)+got >= len(x.strs) || string(x.strs[off:int(off)+got]) != s || x.strs[int(off)+got] != 0) {
					t.Errorf("at(%d, %q) = %d, but the table has no %q there", off, s, got, s)
				}
			}
		}
	}
	if x.at(0, []byte{0}) != -1 {
		t.Errorf("at matched the empty string")
	}
}
