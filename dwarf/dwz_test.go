package dwarf

import (
	"bytes"
	"debug/elf"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestDWZ links two executables from the corpus, lets dwz move their
// common DIEs and strings into an alternate file, and checks: the same
// values as debug/dwarf (which returns DW_FORM_GNU_ref_alt/strp_alt as
// raw offsets), every alternate string equal to the bytes at that offset
// of the alternate file's .debug_str (read with debug/elf), and every
// alternate reference landing on a DIE of the alternate file at that
// offset.
func TestDWZ(t *testing.T) {
	testc.Require(t, "gcc")
	testc.Require(t, "dwz")
	dir := t.TempDir()
	src := filepath.Join(testc.CorpusDir(), "types.c")
	var exes []string
	for i, opt := range []string{"-O0", "-O2"} {
		exe := filepath.Join(dir, []string{"a", "b"}[i])
		testc.Run(t, "gcc", "-gdwarf-4", opt, "-nostdlib", "-static", "-Wl,-e,0", "-Wl,--unresolved-symbols=ignore-all", "-o", exe, src)
		exes = append(exes, exe)
	}
	alt := filepath.Join(dir, "common.debug")
	testc.Run(t, "dwz", "-m", alt, "-M", alt, exes[0], exes[1])

	altELF, err := elf.Open(alt)
	if err != nil {
		t.Fatal(err)
	}
	defer altELF.Close()
	altStr, err := altELF.Section(".debug_str").Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, exe := range exes {
		st := compareWithGo(t, exe)
		if st.goErr != nil {
			t.Fatalf("%s: debug/dwarf: %v", exe, st.goErr)
		}
		d, err := Open(exe)
		if err != nil {
			t.Fatal(err)
		}
		if d.Alt() == nil {
			t.Fatalf("%s: alternate file %q not found", exe, d.AltLink())
		}
		var nstr, nref int
		r := d.NewReader()
		var e, target Entry
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
				for j := range e.Fields {
					f := &e.Fields[j]
					switch f.Class {
					case ClassStringAlt:
						s, err := d.String(f)
						if err != nil {
							t.Fatal(err)
						}
						want := altStr[f.Val:]
						want = want[:bytes.IndexByte(want, 0)]
						if s != string(want) {
							t.Fatalf("DIE 0x%x %v: %q, alternate .debug_str has %q", e.Offset, f.Attr, s, want)
						}
						nstr++
					case ClassReferenceAlt:
						if err := d.AltEntryAt(f.Val, &target); err != nil {
							t.Fatalf("DIE 0x%x %v: %v", e.Offset, f.Attr, err)
						}
						if uint64(target.Offset) != f.Val || target.Tag == 0 {
							t.Fatalf("DIE 0x%x %v: alt DIE 0x%x tag %v", e.Offset, f.Attr, target.Offset, target.Tag)
						}
						nref++
					}
				}
			}
		}
		d.Close()
		if nstr == 0 || nref == 0 {
			t.Errorf("%s: dwz produced %d alternate strings and %d alternate references; expected some of each", exe, nstr, nref)
		}
		t.Logf("%s: %d DIEs equal to debug/dwarf, %d alt strings and %d alt references resolved", filepath.Base(exe), st.dies, nstr, nref)
	}
}
