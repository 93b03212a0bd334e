package dedup

import (
	"fmt"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// streamUnits merges the units, feeds the merged types to a Stream unit by
// unit and returns its result, the Stream, and the merged input.
func streamUnits(t testing.TB, units []*btf.Spec) (*btf.Spec, *Stream, *btf.Spec) {
	t.Helper()
	merged, err := Merge(units...)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStream(nil)
	id := merged.FirstID()
	for _, u := range units {
		for end := id + btf.TypeID(u.NumTypes()); id < end; id++ {
			name, info, st, ext := merged.RawType(id)
			if got := s.AddRaw(name, info, st, ext...); got != id {
				t.Fatalf("AddRaw gave ID %d, want %d", got, id)
			}
		}
		if err := s.EndUnit(); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.Finish(merged.RawStrings())
	if err != nil {
		t.Fatal(err)
	}
	return out, s, merged
}

// render lists a Spec's types with names and member names as strings, so
// that Specs with different string tables compare.
func render(s *btf.Spec) []string {
	var out []string
	for id := s.FirstID(); id < s.NextID(); id++ {
		name, info, st, ext := s.RawType(id)
		e := append([]uint32(nil), ext...)
		var strs []string
		btf.ForEachStringRef(info, &name, e, func(p *uint32) { strs = append(strs, s.String(*p)) })
		out = append(out, fmt.Sprintf("[%d] info %#x st %d ext %v names %q", id, info, st, e, strs))
	}
	return out
}

// requireStreamEqualsDedup: the Stream gives Dedup's types (with
// KeepDuplicateVars), its strings being the merged table's.
func requireStreamEqualsDedup(t testing.TB, units []*btf.Spec) *Stream {
	t.Helper()
	got, s, merged := streamUnits(t, units)
	want, _, err := Dedup(merged, Options{KeepDuplicateVars: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(got.RawStrings()) != string(merged.RawStrings()) {
		t.Errorf("the Stream's string table is not the merged one")
	}
	g, w := render(got), render(want)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		n := 0
		for i := 0; i < len(g) && i < len(w) && n < 10; i++ {
			if g[i] != w[i] {
				t.Errorf("stream %s\n dedup %s", g[i], w[i])
				n++
			}
		}
		t.Fatalf("the Stream's %d types differ from Dedup's %d", len(g), len(w))
	}
	return s
}

// TestStreamClosures: overlapping units cut from the vmlinux BTF (cycles,
// FWDs, typedef chains) give Dedup's result through a Stream.
func TestStreamClosures(t *testing.T) {
	_, units := closureUnits(t, 80)
	specs := make([]*btf.Spec, len(units))
	for i, u := range units {
		specs[i] = u.Spec
	}
	requireStreamEqualsDedup(t, specs)
}

// TestStreamCases: the hand-built cases (FWDs resolved through the graph
// and by name, enum forwards, typedef cycles) through a Stream.
func TestStreamCases(t *testing.T) {
	for i, units := range [][]unit{cyclicUnits(), fwdUnits(), enumFwdUnits()} {
		specs := make([]*btf.Spec, len(units))
		for j, u := range units {
			specs[j] = u.Spec
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { requireStreamEqualsDedup(t, specs) })
	}
}

func cyclicUnits() []unit { return []unit{cyclicUnit(0), cyclicUnit(1), cyclicUnit(2)} }

func fwdUnits() []unit {
	u1 := newUnit()
	u1.ptr(u1.fwd("foo", false))
	u2 := newUnit()
	i := u2.int_("int", 4, true)
	u2.ptr(u2.structT("foo", 4, mem{"u", i, 0}))
	u3 := newUnit()
	f := u3.fwd("foo", false)
	u3.structT("bar", 8, mem{"f", u3.ptr(f), 0})
	return []unit{u1, u2, u3}
}

func enumFwdUnits() []unit {
	u1 := newUnit()
	u1.ptr(u1.enum("e", 4))
	u2 := newUnit()
	u2.ptr(u2.enum("e", 4, "A", "B"))
	u3 := newUnit()
	u3.ptr(u3.enum("e", 4))
	u3.ptr(u3.enum("e", 4, "A", "B"))
	return []unit{u1, u2, u3}
}

// TestStreamCandidateOrder: a struct with two canonical candidates that
// both pass (a FWD matches either of two different definitions of the
// struct it declares) takes the one libbpf's table lists first, which
// depends on how often the table grew, which depends on the number of
// primitive types of all units, also those after it. With every number
// of primitive types added after it, the Stream must agree with Dedup:
// by its own order where the number it knew gives the same choice, by
// redoing the phases where it does not. Both must happen here.
func TestStreamCandidateOrder(t *testing.T) {
	redone, kept := 0, 0
	for late := 0; late < 96; late += 3 {
		for early := 0; early < 8; early++ {
			var units []*btf.Spec
			for v, size := range []uint32{4, 8} {
				u := newUnit()
				i := u.int_(fmt.Sprintf("v%d", v), size, true)
				tt := u.structT("T", size, mem{"a", i, 0})
				u.structT("S", 8, mem{"t", u.ptr(tt), 0})
				units = append(units, u.Spec)
			}
			pre := newUnit()
			for k := 0; k < early; k++ {
				pre.int_(fmt.Sprintf("early%d", k), 4, false)
				pre.structT(fmt.Sprintf("E%d", k), 4)
			}
			units = append(units, pre.Spec)
			x := newUnit()
			x.structT("S", 8, mem{"t", x.ptr(x.fwd("T", false)), 0})
			units = append(units, x.Spec)
			post := newUnit()
			for k := 0; k < late; k++ {
				post.int_(fmt.Sprintf("late%d", k), 2, false)
			}
			units = append(units, post.Spec)
			s := requireStreamEqualsDedup(t, units)
			if s.choices == 0 {
				t.Fatalf("early %d, late %d: no decision between candidates was made", early, late)
			}
			if s.redone {
				redone++
			} else {
				kept++
			}
		}
	}
	if redone == 0 || kept == 0 {
		t.Errorf("%d runs redone, %d kept their choices: both paths must be taken", redone, kept)
	}
	t.Logf("%d runs redone, %d kept their choices", redone, kept)
}

// TestReplayOrderMatchesTable: the order seqIndex works out for a key is
// the order the table (libbpf's hashmap) gives, whatever the number of
// entries before the struct phase and in between.
func TestReplayOrderMatchesTable(t *testing.T) {
	for p := 0; p < 40; p++ {
		var tab table
		for i := 0; i < p; i++ {
			tab.add(uint64(1000+i), uint32(1000+i))
		}
		var x seqIndex
		x.prims = func() int { return p }
		for n := 0; n < 60; n++ {
			key := uint64(n % 3) // three keys, interleaved
			if n%5 == 4 {
				key = uint64(100 + n) // others, growing the table
			}
			tab.add(key, uint32(n))
			x.add(key, uint32(n))
			for k := uint64(0); k < 3; k++ {
				var want, got []uint32
				tab.cands(k, func(id uint32) bool { want = append(want, id); return true })
				x.cands(k, func(id uint32) bool { got = append(got, id); return true }, func(uint32) bool { return true })
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("P %d, after %d: key %d: order %v, table %v", p, n+1, k, got, want)
				}
			}
		}
	}
}

// TestStreamBadReference: EndUnit refuses a type referring past the last
// type appended, naming the type and the first such reference, for each
// kind that refers to types and at each place a reference sits; the same
// types with the reference in range pass.
func TestStreamBadReference(t *testing.T) {
	intInfo := btf.Info(btf.KindInt, 0, false)
	for _, c := range []struct {
		name string
		k    btf.Kind
		vlen int
		st   uint32
		ext  func(ref uint32) []uint32
		// st is the reference, not the type's size
		stRef bool
	}{
		{name: "ptr", k: btf.KindPtr, stRef: true},
		{name: "typedef", k: btf.KindTypedef, stRef: true},
		{name: "const", k: btf.KindConst, stRef: true},
		{name: "func", k: btf.KindFunc, stRef: true},
		{name: "type_tag", k: btf.KindTypeTag, stRef: true},
		{name: "var", k: btf.KindVar, stRef: true, ext: func(uint32) []uint32 { return []uint32{1} }},
		{name: "decl_tag", k: btf.KindDeclTag, stRef: true, ext: func(uint32) []uint32 { return []uint32{^uint32(0)} }},
		{name: "array elem", k: btf.KindArray, ext: func(r uint32) []uint32 { return []uint32{r, 1, 4} }},
		{name: "array index", k: btf.KindArray, ext: func(r uint32) []uint32 { return []uint32{1, r, 4} }},
		{name: "struct last member", k: btf.KindStruct, vlen: 3, st: 12,
			ext: func(r uint32) []uint32 { return []uint32{0, 1, 0, 0, 1, 32, 0, r, 64} }},
		{name: "union first member", k: btf.KindUnion, vlen: 2, st: 4,
			ext: func(r uint32) []uint32 { return []uint32{0, r, 0, 0, 1, 0} }},
		{name: "proto return", k: btf.KindFuncProto, vlen: 1, stRef: true,
			ext: func(uint32) []uint32 { return []uint32{0, 1} }},
		{name: "proto param", k: btf.KindFuncProto, vlen: 2, st: 1,
			ext: func(r uint32) []uint32 { return []uint32{0, 1, 0, r} }},
		{name: "datasec", k: btf.KindDatasec, vlen: 2, st: 8,
			ext: func(r uint32) []uint32 { return []uint32{1, 0, 4, r, 4, 4} }},
	} {
		for _, ref := range []uint32{2, 3, 1 << 20} {
			s := NewStream(nil)
			s.AddRaw(0, intInfo, 4, 32) // [1] int
			st := c.st
			if c.stRef {
				st = ref
			}
			var ext []uint32
			if c.ext != nil {
				ext = c.ext(ref)
			}
			id := s.AddRaw(0, btf.Info(c.k, c.vlen, false), st, ext...) // [2]
			err := s.EndUnit()
			if ref <= 2 {
				if err != nil {
					t.Errorf("%s referring to %d: %v", c.name, ref, err)
				}
				continue
			}
			want := fmt.Sprintf("dedup: type [%d] %s refers to type %d, past the last type 2", id, c.k, ref)
			if fmt.Sprint(err) != want {
				t.Errorf("%s referring to %d: %v, want %s", c.name, ref, err, want)
			}
		}
	}
}
