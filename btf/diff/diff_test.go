package diff

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// sample builds a small BTF; the knobs introduce one difference each, and
// swap adds the same types in a different order (other IDs).
type knobs struct {
	swap        bool
	memberLong  bool // struct foo member 1 'x': int -> long
	enumVal     bool // enum color GREEN = 1 -> 2
	dropTypedef bool // no typedef u32
	anonChange  bool // the anonymous union inside foo gets another member type
	extraPtr    bool // one more (duplicate) PTR
}

func sample(k knobs) *btf.Spec {
	s := btf.NewSpec()
	var i, l, u, foo, pfoo, col, anon btf.TypeID
	addScalars := func() {
		i = s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
		l = s.Add("long", btf.KindInt, 0, false, 8, btf.IntSigned<<24|64)
		u = s.Add("unsigned int", btf.KindInt, 0, false, 4, 32)
	}
	addEnum := func() {
		g := uint32(1)
		if k.enumVal {
			g = 2
		}
		col = s.Add("color", btf.KindEnum, 3, false, 4,
			s.AddString("RED"), 0, s.AddString("GREEN"), g, s.AddString("BLUE"), 5)
	}
	addStruct := func() {
		at := i
		if k.anonChange {
			at = u
		}
		anon = s.Add("", btf.KindUnion, 2, false, 4, s.AddString("a"), uint32(at), 0, s.AddString("b"), uint32(u), 0)
		xt := i
		if k.memberLong {
			xt = l
		}
		foo = s.Add("foo", btf.KindStruct, 4, false, 24,
			s.AddString("next"), 0, 0, // fixed below
			s.AddString("x"), uint32(xt), 64,
			s.AddString("c"), uint32(col), 128,
			0, uint32(anon), 160)
		pfoo = s.Add("", btf.KindPtr, 0, false, uint32(foo))
		name, info, size, ext := s.RawType(foo)
		e := append([]uint32(nil), ext...)
		e[1] = uint32(pfoo)
		s.SetRaw(foo, name, info, size, e...)
	}
	if k.swap {
		addEnum() // refers to nothing
		addScalars()
		addStruct()
	} else {
		addScalars()
		addEnum()
		addStruct()
	}
	if !k.dropTypedef {
		s.Add("u32", btf.KindTypedef, 0, false, uint32(u))
	}
	fp := s.Add("", btf.KindFuncProto, 2, false, uint32(i), s.AddString("f"), uint32(pfoo), 0, 0)
	s.Add("do_foo", btf.KindFunc, 0, false, uint32(fp))
	if k.extraPtr {
		s.Add("", btf.KindPtr, 0, false, uint32(foo))
	}
	return s
}

func compareText(t *testing.T, a, b *btf.Spec, opts Options) (*Result, string) {
	t.Helper()
	r := Compare(a, b, opts)
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return r, buf.String()
}

func TestEqualAndSwappedIDs(t *testing.T) {
	a, b := sample(knobs{}), sample(knobs{swap: true})
	if a.Type(1).Name() == b.Type(1).Name() {
		t.Fatal("swap did not change the IDs")
	}
	for _, p := range [][2]*btf.Spec{{a, a}, {a, b}, {b, a}} {
		if r, out := compareText(t, p[0], p[1], Options{}); !r.Equal() {
			t.Errorf("want equal, got:\n%s", out)
		}
	}
}

func TestDifferences(t *testing.T) {
	base := sample(knobs{})
	cases := []struct {
		name string
		k    knobs
		want []string
	}{
		{"member type", knobs{memberLong: true}, []string{"~ STRUCT foo: member 1 'x': int @64 -> long @64"}},
		{"enum value", knobs{enumVal: true}, []string{"~ ENUM color: value 1 'GREEN': 1 -> 2"}},
		{"missing type", knobs{dropTypedef: true}, []string{"- TYPEDEF u32", "# count TYPEDEF: 1 -> 0"}},
		{"anonymous member type", knobs{anonChange: true}, []string{"~ STRUCT foo: member 3 '': union{size=4; a int @0; b unsigned int @0} @160 -> union{size=4; a unsigned int @0; b unsigned int @0} @160"}},
		{"duplicate pointer", knobs{extraPtr: true}, []string{"+ PTR (anon)", "# count PTR: 1 -> 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			other := sample(c.k)
			r, out := compareText(t, base, other, Options{})
			if r.Equal() {
				t.Fatalf("reported equal")
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if len(r.Diffs) != len(c.want) {
				t.Errorf("%d differences, want %d:\n%s", len(r.Diffs), len(c.want), out)
			}
			// Reversed, the same number of differences.
			if r2 := Compare(other, base, Options{}); len(r2.Diffs) != len(r.Diffs) {
				t.Errorf("reversed: %d differences, want %d", len(r2.Diffs), len(r.Diffs))
			}
		})
	}
}

func TestKindFilters(t *testing.T) {
	a, b := sample(knobs{}), sample(knobs{dropTypedef: true, extraPtr: true})
	if r, out := compareText(t, a, b, Options{ExcludeKinds: []btf.Kind{btf.KindTypedef, btf.KindPtr}}); !r.Equal() {
		t.Errorf("excluding TYPEDEF and PTR: want equal, got:\n%s", out)
	}
	if r, out := compareText(t, a, b, Options{Kinds: []btf.Kind{btf.KindStruct, btf.KindEnum}}); !r.Equal() {
		t.Errorf("only STRUCT and ENUM: want equal, got:\n%s", out)
	}
	if r := Compare(a, b, Options{Kinds: []btf.Kind{btf.KindTypedef}}); r.Equal() {
		t.Error("only TYPEDEF: want a difference")
	}
	ks, err := ParseKinds("func, FUNC_PROTO,var,DataSec")
	if err != nil || len(ks) != 4 || ks[0] != btf.KindFunc || ks[3] != btf.KindDatasec {
		t.Errorf("ParseKinds: %v %v", ks, err)
	}
	if _, err := ParseKinds("STRUCT,BOGUS"); err == nil {
		t.Error("ParseKinds accepted BOGUS")
	}
}

func TestReferenceSelf(t *testing.T) {
	data, err := os.ReadFile(testenv.Reference(t, "debian-6.1.0-57-cloud/embedded.btf"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := btf.Parse(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := btf.Parse(data, nil)
	if r := Compare(a, b, Options{}); !r.Equal() {
		t.Errorf("a BTF differs from itself: %v", r.Diffs[:min(10, len(r.Diffs))])
	}
	if r := Compare(a, b, Options{}); r.CountsA[btf.KindStruct] != 8211 {
		t.Errorf("STRUCT count %d, want 8211", r.CountsA[btf.KindStruct])
	}
}
