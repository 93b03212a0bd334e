package dwarffacts

import (
	"reflect"
	"testing"
)

func TestFacts(t *testing.T) {
	var none *Facts
	if none.Align(1) != 0 || none.MemberAlign(1, 0) != 0 || none.Dims(1) != nil || none.Nested(1) || none.NestedIn(1) != nil {
		t.Error("a nil *Facts must answer as for BTF")
	}
	var f Facts
	f.SetAlign(2, 64)
	f.SetMemberAlign(2, 1, 16)
	f.SetDims(3, []uint32{4, 2})
	f.SetNested(5)
	f.AddNestedIn(2, 0, 6)
	f.AddNestedIn(2, 1, 7)
	if f.Align(2) != 64 || f.Align(3) != 0 || f.MemberAlign(2, 1) != 16 || f.MemberAlign(2, 0) != 0 {
		t.Error("alignments")
	}
	if !reflect.DeepEqual(f.Dims(3), []uint32{4, 2}) || f.Dims(2) != nil {
		t.Error("dims")
	}
	if !f.Nested(5) || f.Nested(2) {
		t.Error("nested")
	}
	if got := f.NestedIn(2); !reflect.DeepEqual(got, []Nested{{0, 6}, {1, 7}}) {
		t.Errorf("NestedIn: %v", got)
	}
}

func TestEntries(t *testing.T) {
	var none *Facts
	if _, ok := none.TypeAt(0x2a); ok {
		t.Error("a nil *Facts knows no entries")
	}
	var f Facts
	f.SetEntry(0x2a, 3)
	f.SetEntry(0x40, 0)
	if id, ok := f.TypeAt(0x2a); !ok || id != 3 {
		t.Errorf("TypeAt(0x2a) = %d, %v", id, ok)
	}
	if id, ok := f.TypeAt(0x40); !ok || id != 0 {
		t.Errorf("TypeAt(0x40) = %d, %v (an entry that resolves to void)", id, ok)
	}
	if _, ok := f.TypeAt(0x41); ok {
		t.Error("TypeAt(0x41): no such entry")
	}
}
