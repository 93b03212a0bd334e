package dedup

import (
	"bytes"
	"testing"
)

// TestMergerOneAtATime: a Merger with no room to start with, given the
// members of a gcc -gbtf archive one at a time (its room grows many
// times), returns the bytes MergeOnto returns for them all at once, and
// each Add returns the first ID FirstIDs gives.
func TestMergerOneAtATime(t *testing.T) {
	members := gccMembers(t, 20)
	want, err := MergeOnto(nil, members...)
	if err != nil {
		t.Fatal(err)
	}
	firsts := FirstIDs(nil, members)
	m := NewMerger(nil, 0, 0, 0)
	for i, s := range members {
		first, err := m.Add(s)
		if err != nil {
			t.Fatal(err)
		}
		if first != firsts[i] {
			t.Errorf("member %d: first ID %d, FirstIDs says %d", i, first, firsts[i])
		}
		// A string the caller interns between Adds is found again.
		if off := m.String("merger_test_name"); off == 0 {
			t.Errorf("String gave offset 0 for a new name")
		}
	}
	got := m.Spec()
	if got.NumTypes() != want.NumTypes() {
		t.Fatalf("%d types, MergeOnto %d", got.NumTypes(), want.NumTypes())
	}
	for id := got.FirstID(); id < got.NextID(); id++ {
		gn, gi, gs, ge := got.RawType(id)
		wn, wi, ws, we := want.RawType(id)
		if got.String(gn) != want.String(wn) || gi != wi || gs != ws || len(ge) != len(we) {
			t.Fatalf("type [%d] differs from MergeOnto's", id)
		}
	}
	// Without the extra name, the same bytes.
	m2 := NewMerger(nil, 0, 0, 0)
	for _, s := range members {
		if _, err := m2.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(m2.Spec().Marshal(nil), want.Marshal(nil)) {
		t.Errorf("Merger's bytes differ from MergeOnto's")
	}
}
