package dwarf

import (
	godwarf "debug/dwarf"
	"debug/elf"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// navObjects is a small set of inputs for the navigation tests: -O2 corpus
// objects from both compilers and, when installed, a few kernel modules.
func navObjects(t *testing.T) []string {
	var objs []string
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O2"}},
	} {
		for _, src := range testc.CorpusFiles(t) {
			objs = append(objs, testc.Compile(t, src, v))
		}
	}
	if _, _, err := testenv.Kernel(); err == nil {
		objs = append(objs, testenv.ModuleSample(t, 3)...)
	} else {
		testenv.SkipPartOrFail(t, "no kernel modules among the inputs: %v", err)
	}
	return objs
}

// TestSkipChildren skips the children of every structure, union,
// enumeration and subprogram, in lockstep with debug/dwarf's
// Reader.SkipChildren, and checks both visit the same DIEs.
func TestSkipChildren(t *testing.T) {
	skip := map[Tag]bool{TagStructureType: true, TagUnionType: true, TagEnumerationType: true, TagSubprogram: true}
	for _, obj := range navObjects(t) {
		d, gd, closeBoth := openBoth(t, obj)
		gr := gd.Reader()
		r := d.NewReader()
		var e Entry
		n := 0
		for i := range d.Units() {
			if d.Units()[i].Section != ".debug_info" {
				continue
			}
			if err := r.Reset(&d.Units()[i]); err != nil {
				t.Fatal(err)
			}
			for {
				ok, err := r.Next(&e)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				ge, err := gr.Next()
				if err != nil || ge == nil {
					t.Fatalf("%s: debug/dwarf: %v %v", obj, ge, err)
				}
				if uint32(ge.Tag) != uint32(e.Tag) || (e.Tag != 0 && godwarf.Offset(e.Offset) != ge.Offset) {
					t.Fatalf("%s: DIE 0x%x %v, debug/dwarf 0x%x %v", filepath.Base(obj), e.Offset, e.Tag, ge.Offset, ge.Tag)
				}
				if skip[e.Tag] && e.Children {
					if err := r.SkipChildren(); err != nil {
						t.Fatal(err)
					}
					gr.SkipChildren()
					n++
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: nothing skipped", obj)
		}
		closeBoth()
	}
}

// TestSeekAndEntryAt checks, for every DIE, that EntryAt decodes the same
// entry a walk did, and for every tenth that Seek there makes Next
// continue exactly as the walk did.
func TestSeekAndEntryAt(t *testing.T) {
	for _, obj := range navObjects(t) {
		d, err := Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		type rec struct {
			off    Offset
			tag    Tag
			fields []Field
		}
		for i := range d.Units() {
			u := &d.Units()[i]
			r := d.NewReader()
			if err := r.Reset(u); err != nil {
				t.Fatal(err)
			}
			var walk []rec
			var e Entry
			for {
				ok, err := r.Next(&e)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				walk = append(walk, rec{e.Offset, e.Tag, append([]Field(nil), e.Fields...)})
			}
			same := func(a rec, e *Entry) bool {
				if a.off != e.Offset || a.tag != e.Tag || len(a.fields) != len(e.Fields) {
					return false
				}
				for k := range a.fields {
					if a.fields[k] != e.Fields[k] {
						return false
					}
				}
				return true
			}
			var at Entry
			for k, w := range walk {
				if w.tag == 0 {
					continue
				}
				if err := r.EntryAt(w.off, &at); err != nil || !same(w, &at) {
					t.Fatalf("%s: EntryAt(0x%x): %v %+v, walk had %+v", filepath.Base(obj), w.off, err, at, w)
				}
				if k%10 != 0 {
					continue
				}
				if err := r.Seek(w.off); err != nil {
					t.Fatal(err)
				}
				for j := k; j < len(walk) && j < k+20; j++ {
					ok, err := r.Next(&e)
					if err != nil || !ok || !same(walk[j], &e) {
						t.Fatalf("%s: after Seek(0x%x), entry %d: %v %v %+v, walk had %+v", filepath.Base(obj), w.off, j-k, ok, err, e, walk[j])
					}
				}
			}
		}
		d.Close()
	}
}

// TestRanges compares Ranges on every DW_AT_ranges with debug/dwarf's
// Data.Ranges, and checks every location list of the inputs decodes.
func TestRangesAndLocLists(t *testing.T) {
	for _, obj := range navObjects(t) {
		d, gd, closeBoth := openBoth(t, obj)
		r := d.NewReader()
		var e Entry
		nr, nl := 0, 0
		for i := range d.Units() {
			if err := r.Reset(&d.Units()[i]); err != nil {
				t.Fatal(err)
			}
			for {
				ok, err := r.Next(&e)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				for k := range e.Fields {
					f := &e.Fields[k]
					switch {
					case f.Attr == AttrRanges:
						var got [][2]uint64
						if err := r.Ranges(f, func(lo, hi uint64) error {
							got = append(got, [2]uint64{lo, hi})
							return nil
						}); err != nil {
							t.Fatalf("%s: DIE 0x%x: %v", filepath.Base(obj), e.Offset, err)
						}
						gr := gd.Reader()
						gr.Seek(godwarf.Offset(e.Offset))
						ge, err := gr.Next()
						if err != nil {
							t.Fatal(err)
						}
						want, err := gd.Ranges(ge)
						if err != nil {
							t.Fatalf("debug/dwarf Ranges: %v", err)
						}
						if len(got) != len(want) {
							t.Fatalf("%s: DIE 0x%x: ranges %x, debug/dwarf %x", filepath.Base(obj), e.Offset, got, want)
						}
						for j := range got {
							if got[j] != want[j] {
								t.Fatalf("%s: DIE 0x%x: ranges %x, debug/dwarf %x", filepath.Base(obj), e.Offset, got, want)
							}
						}
						nr++
					case f.Class == ClassLocList || (f.Class == ClassLocListPtr && f.Attr == AttrLocation):
						entries := 0
						if err := r.LocList(f, func(le LocEntry) error {
							if !le.Default && le.High < le.Low {
								t.Errorf("%s: DIE 0x%x: range [%#x, %#x)", filepath.Base(obj), e.Offset, le.Low, le.High)
							}
							entries++
							return nil
						}); err != nil {
							t.Fatalf("%s: DIE 0x%x: %v", filepath.Base(obj), e.Offset, err)
						}
						nl++
					}
				}
			}
		}
		t.Logf("%s: %d range lists equal to debug/dwarf's, %d location lists decoded", filepath.Base(obj), nr, nl)
		closeBoth()
	}
}

// openBoth opens obj with this package and with debug/dwarf, the oracle;
// closeBoth closes both files.
func openBoth(t *testing.T, obj string) (d *Data, gd *godwarf.Data, closeBoth func()) {
	t.Helper()
	d, err := Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	gd, err = ef.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	return d, gd, func() { ef.Close(); d.Close() }
}

// withOldDWARF is navObjects plus the corpus compiled by gcc as DWARF 2
// and 3 (where member locations are expressions).
func withOldDWARF(t *testing.T) []string {
	objs := navObjects(t)
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-2", "-O0"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-3", "-O2"}},
	} {
		for _, src := range testc.CorpusFiles(t) {
			objs = append(objs, testc.Compile(t, src, v))
		}
	}
	return objs
}
