package dedup

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// TestPreparedBaseMalformed: on standalone input with references past its
// last type (which MergeOnto refuses), Dedup with a prepared base fails naming the first
// such type (placed after the base) and the reference (as the past-the-end
// ID); well-formed standalone input gives what Dedup gives on the merge.
func TestPreparedBaseMalformed(t *testing.T) {
	base := newUnit()
	i := base.int_("int", 4, true)
	base.ptr(i) // the input's types are placed from 3
	pb, err := PrepareBase(base.Spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		build func(u unit)
		want  string
	}{
		{"ptr", func(u unit) { u.ptr(42) }, "type [3] PTR refers to type 4, past the last type 3"},
		{"member", func(u unit) { u.structT("s", 8, mem{"a", 1, 0}, mem{"b", 77, 0}, mem{"c", 99, 0}) },
			"type [3] STRUCT refers to type 4, past the last type 3"},
		{"second", func(u unit) {
			x := u.int_("int", 4, true)
			u.ptr(x)
			u.typedef("t", 40)
			u.ptr(50)
		}, "type [5] TYPEDEF refers to type 7, past the last type 6"},
		{"array", func(u unit) {
			x := u.int_("int", 4, true)
			u.Add("", btf.KindArray, 0, false, 0, uint32(x), 60, 4)
		}, "type [4] ARRAY refers to type 5, past the last type 4"},
		{"proto", func(u unit) {
			x := u.int_("int", 4, true)
			u.Add("", btf.KindFuncProto, 2, false, uint32(x), u.AddString("a"), uint32(x), u.AddString("b"), 31)
		}, "type [4] FUNC_PROTO refers to type 5, past the last type 4"},
		{"datasec", func(u unit) {
			x := u.int_("int", 4, true)
			v := u.Add("v", btf.KindVar, 0, false, uint32(x), 1)
			u.Add(".data", btf.KindDatasec, 2, false, 8, uint32(v), 0, 4, 9, 4, 4)
		}, "type [5] DATASEC refers to type 6, past the last type 5"},
	} {
		u := newUnit()
		c.build(u)
		_, _, err := Dedup(u.Spec, Options{Base: pb})
		if want := "dedup: " + c.want; fmt.Sprint(err) != want {
			t.Errorf("%s: %v, want %s", c.name, err, want)
		}
	}

	u := newUnit()
	x := u.int_("int", 4, true)
	p := u.ptr(x)
	u.structT("s", 8, mem{"p", p, 0})
	u.enum("e", 4, "A", "B")
	merged, err := MergeOnto(base.Spec, u.Spec)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := Dedup(merged, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := Dedup(u.Spec, Options{Base: pb})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
		t.Errorf("Dedup with and without a prepared base differ on well-formed input")
	}
}
