package dedup

import (
	"bytes"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestTwiceEqualsOnce: two structs "list" that differ only in which
// (equivalent) pointer types their members use, one pointing to itself,
// the other to the first: Dedup merges them, and two copies of the whole
// BTF deduplicate to exactly what one copy does. (The second copy's
// struct meets, through its "prev" member, a pointer of its own copy
// that the walk has already paired with another; the identical-types
// fallback must see that the two copies go round the same cycle. In
// libbpf, and here before FuzzDedup found it, it ran out of depth.)
func TestTwiceEqualsOnce(t *testing.T) {
	s := btf.NewSpec()
	a, next, prev := s.AddString("a"), s.AddString("next"), s.AddString("prev")
	s.Add("", btf.KindPtr, 0, false, 0)                                             // 1: void *
	s.Add("", btf.KindPtr, 0, false, 3)                                             // 2: struct list *
	s.Add("list", btf.KindStruct, 3, false, 24, a, 1, 0, next, 2, 64, prev, 2, 128) // 3
	s.Add("", btf.KindPtr, 0, false, 0)                                             // 4: void *
	s.Add("", btf.KindPtr, 0, false, 6)                                             // 5: the other struct list *
	s.Add("list", btf.KindStruct, 3, false, 24, a, 4, 0, next, 5, 64, prev, 2, 128) // 6
	once, _, err := Dedup(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if once.NumTypes() != 3 {
		t.Errorf("Dedup keeps %d types, want 3 (void *, struct list *, struct list)", once.NumTypes())
	}
	two, err := Merge(s, s)
	if err != nil {
		t.Fatal(err)
	}
	twice, _, err := Dedup(two, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(twice.Marshal(nil), once.Marshal(nil)) {
		t.Errorf("Dedup of two copies keeps %d types, of one copy %d", twice.NumTypes(), once.NumTypes())
	}
}
