package dwarf

import (
	godwarf "debug/dwarf"
	"path"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestLineFiles checks each unit's line program file names against
// debug/dwarf's LineReader.Files on the navigation inputs (gcc and clang,
// DWARF 4 and 5, kernel modules) and DWARF 2 and 3 objects: the same
// files in the same order, with the same base names. Before DWARF 5 the
// paths are compared too: an absolute one is the same (debug/dwarf cleans
// it); one that stays relative (under a relative directory, which libdw
// does not join with the comp dir) is debug/dwarf's as it is or joined
// with the comp dir. (debug/dwarf joins clang's DWARF 5 file 0 with the
// current directory, so it is no oracle for those paths; pahole -D is, in
// package layout's tests.)
func TestLineFiles(t *testing.T) {
	objs := withOldDWARF(t)
	for _, obj := range objs {
		d, gd, closeBoth := openBoth(t, obj)
		defer closeBoth()
		theirs := map[Offset][]*godwarf.LineFile{}
		compDirs := map[Offset]string{}
		gr := gd.Reader()
		for {
			e, err := gr.Next()
			if err != nil {
				t.Fatal(err)
			}
			if e == nil {
				break
			}
			if e.Tag != godwarf.TagCompileUnit {
				gr.SkipChildren()
				continue
			}
			lr, err := gd.LineReader(e)
			if err != nil {
				t.Fatal(err)
			}
			if lr != nil {
				theirs[Offset(e.Offset)] = lr.Files()
			}
			compDirs[Offset(e.Offset)], _ = e.Val(godwarf.AttrCompDir).(string)
			gr.SkipChildren()
		}
		r := d.NewReader()
		n := 0
		for i := range d.Units() {
			u := &d.Units()[i]
			if u.Section != ".debug_info" {
				continue
			}
			if err := r.Reset(u); err != nil {
				t.Fatal(err)
			}
			ours, err := r.LineFiles()
			if err != nil {
				t.Fatalf("%s: unit at 0x%x: %v", obj, u.Offset, err)
			}
			want := theirs[u.First]
			if len(ours) != len(want) {
				t.Fatalf("%s: unit at 0x%x: %d files, debug/dwarf %d", obj, u.Offset, len(ours), len(want))
			}
			for j, f := range want {
				if f == nil {
					if ours[j] != "" {
						t.Errorf("%s: file %d: %q, debug/dwarf has none", obj, j, ours[j])
					}
					continue
				}
				got := path.Clean(ours[j])
				ok := path.Base(got) == path.Base(f.Name)
				if u.Version < 5 {
					ok = got == f.Name || !path.IsAbs(got) && path.Join(compDirs[u.First], got) == f.Name
				}
				if !ok {
					t.Errorf("%s: unit at 0x%x, file %d: %q, debug/dwarf %q", obj, u.Offset, j, ours[j], f.Name)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no file names", obj)
		}
	}
}

// TestLineFilesTruncated: a line program header cut anywhere is an error
// naming .debug_line, never a panic.
func TestLineFilesTruncated(t *testing.T) {
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O2"}},
	} {
		obj := testc.Compile(t, testc.CorpusFiles(t)[0], v)
		d, err := Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		s := *d.Sections()
		full := s.Line
		for cut := 0; cut < len(full) && cut < 2048; cut++ {
			s.Line = full[:cut]
			d2, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			r := d2.NewReader()
			if err := r.Reset(&d2.Units()[0]); err != nil {
				t.Fatal(err)
			}
			if _, err := r.LineFiles(); err == nil && cut < 40 {
				t.Errorf("%s: .debug_line cut to %d bytes: no error", v.Name(), cut)
			}
		}
	}
}
