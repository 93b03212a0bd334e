package layout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// Multi-dimensional arrays, which pahole 1.32 encodes as one BTF ARRAY
// per dimension and prints from BTF, as from DWARF, as one array with all
// its dimensions ("Fix multi-dimensional array loading").

// arrayCases are the command lines run on testdata/arrays.c.
var arrayCases = []printCase{
	{"default", nil},
	{"flat_arrays", []string{"--flat_arrays"}},
	{"E", []string{"-E"}},
	{"hex-E-flat_arrays", []string{"--hex", "-E", "--flat_arrays"}},
	{"compile", []string{"--compile"}},
	{"C-typedefs", []string{"-C", "grid_t,name_t,row_t,arrays_const,arrays_of_typedefs"}},
	{"R", []string{"-R"}},
	{"P", []string{"-P"}},
	{"s", []string{"-s"}},
	{"l", []string{"-l"}},
	{"w", []string{"-w", "4"}},
}

// TestFixturesArrays: testdata/arrays.c (2- and 3-dimensional arrays of
// base types, structs, typedefs, const and volatile members, flexible and
// zero-length dimensions) from gcc and clang, DWARF 4 and 5, -O0 and -O2,
// from DWARF and from the BTF pahole -J makes of it, against the pahole
// on PATH (1.32).
func TestFixturesArrays(t *testing.T) {
	testc.Require(t, "pahole")
	objs := fixtureObjects(t, "arrays.c")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			obj := objs[v.Name()]
			_, s := btfObject(t, obj)
			// The BTF has one ARRAY per dimension: what the test is about.
			nested := 0
			for id := btf.TypeID(1); id < s.NextID(); id++ {
				if ty := s.Type(id); ty.Kind() == btf.KindArray && s.Type(ty.Array().Elem).Kind() == btf.KindArray {
					nested++
				}
			}
			if nested < 20 {
				t.Fatalf("pahole -J made %d ARRAYs of ARRAYs, want one ARRAY per dimension", nested)
			}
			checkAgainstPahole(t, obj, arrayCases)
		})
	}
}

// handArrays is BTF made by hand for what pahole 1.32's BTF loader folds:
// an ARRAY whose element is directly an ARRAY of a lower ID. Through a
// typedef, a qualifier or a type tag, or to an ARRAY of a higher ID, the
// element stays an array of its own, which pahole prints inner dimensions
// first; flexible and zero dimensions at each place; a pointer to a
// multi-dimensional array.
func handArrays() *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	s.Add("long int", btf.KindInt, 0, false, 8, btf.IntSigned<<24|64)
	arr := func(elem btf.TypeID, n uint32) btf.TypeID {
		return s.Add("", btf.KindArray, 0, false, 0, uint32(elem), uint32(i), n)
	}
	ref := func(k btf.Kind, name string, to btf.TypeID) btf.TypeID {
		return s.Add(name, k, 0, false, uint32(to))
	}
	type mem struct {
		name string
		typ  btf.TypeID
		size uint32
	}
	aggr := func(name string, union bool, ms ...mem) {
		var ext []uint32
		off, size := uint32(0), uint32(0)
		for _, m := range ms {
			ext = append(ext, s.AddString(m.name), uint32(m.typ), off*8)
			if !union {
				off += m.size
			}
			size = max(size, m.size)
		}
		k := btf.KindUnion
		if !union {
			k, size = btf.KindStruct, off
		}
		s.Add(name, k, len(ms), false, size, ext...)
	}
	a4 := arr(i, 4)
	a34 := arr(a4, 3)
	a234 := arr(a34, 2)
	constRow := arr(ref(btf.KindConst, "", a4), 2)
	volatileGrid := arr(ref(btf.KindVolatile, "", a34), 5)
	typedefRow := arr(ref(btf.KindTypedef, "row_t", a4), 3)
	typedefGrid := arr(ref(btf.KindTypedef, "grid_t", a34), 2)
	taggedRow := arr(ref(btf.KindTypeTag, "tag", a4), 2)
	ptr := ref(btf.KindPtr, "", a34)
	constGrid := ref(btf.KindConst, "", a34)
	zeroInner := arr(arr(i, 0), 3)
	zeroOuter := arr(arr(i, 3), 0)
	pt := s.Add("pt", btf.KindStruct, 2, false, 8, s.AddString("x"), uint32(i), 0, s.AddString("y"), uint32(i), 32)
	points := arr(arr(pt, 3), 2)
	// The outer ARRAY before its element.
	later := s.Add("", btf.KindArray, 0, false, 0, 0, uint32(i), 2)
	inner := arr(i, 5)
	nameOff, info, _, _ := s.RawType(later)
	s.SetRaw(later, nameOff, info, 0, uint32(inner), uint32(i), 2)
	aggr("hand", false,
		mem{"row", a4, 16}, mem{"grid", a34, 48}, mem{"cube", a234, 96},
		mem{"const_row", constRow, 32}, mem{"volatile_grid", volatileGrid, 240},
		mem{"typedef_row", typedefRow, 48}, mem{"typedef_grid", typedefGrid, 96},
		mem{"tagged_row", taggedRow, 32}, mem{"ptr", ptr, 8}, mem{"const_grid", constGrid, 48},
		mem{"points", points, 48}, mem{"later", later, 40}, mem{"zero_inner", zeroInner, 0})
	aggr("flex_outer", false, mem{"n", i, 4}, mem{"z", zeroOuter, 0})
	aggr("flex_inner", false, mem{"n", i, 4}, mem{"z", zeroInner, 0})
	aggr("hand_union", true, mem{"a", a34, 48}, mem{"b", zeroOuter, 0}, mem{"c", zeroInner, 0})
	return s
}

// TestArraysHandMadeBTF: handArrays against pahole -F btf (1.32) on it.
func TestArraysHandMadeBTF(t *testing.T) {
	testc.Require(t, "pahole")
	s := handArrays()
	path := filepath.Join(t.TempDir(), "arrays.btf")
	if err := os.WriteFile(path, s.Marshal(nil), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []printCase{
		{"default", nil},
		{"flat_arrays", []string{"--flat_arrays"}},
		{"E", []string{"-E"}},
		{"compile", []string{"--compile"}},
		{"C", []string{"-C", "hand,grid_t,row_t"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := printOpts(t, c.args)
			want, wantMissing := pahole(t, optionCase{c.name, c.args, o}, "-F", "btf", path)
			got, missing := listBTFFile(t, s, path, o)
			if got != want || missing != wantMissing {
				t.Errorf("pahole -F btf %s: missing %q (want %q); %s", strings.Join(c.args, " "), missing, wantMissing, diffTypes(got, want))
			}
		})
	}
}
