package dwarf_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/internal/testc"
)

// TestLineFiles: the file names of a line program header, DWARF 4 and 5
// from gcc and clang, indexed as DW_AT_decl_file indexes them (the layout
// tests check the names against pahole -I, which reads them with libdw);
// a header cut anywhere is an error, not a panic.
func TestLineFiles(t *testing.T) {
	src := filepath.Join(testc.CorpusDir(), "types.c")
	for _, cc := range []testc.Compiler{testc.GCC, testc.Clang} {
		for _, dw := range []string{"-gdwarf-4", "-gdwarf-5"} {
			v := testc.Variant{CC: cc, Flags: []string{dw, "-O2"}}
			d, err := dwarf.Open(testc.Compile(t, src, v))
			if err != nil {
				t.Fatal(err)
			}
			files, err := d.LineFiles(0, "/comp/dir")
			if err != nil {
				t.Fatalf("%s: %v", v.Name(), err)
			}
			// DWARF 5's file 0 is the unit's source; DWARF 4 has no
			// file 0 ("???" in libdw) and lists the source after it.
			want := []string{src}
			if dw == "-gdwarf-4" {
				want = []string{"???", src}
			}
			if len(files) < len(want) || strings.Join(files[:len(want)], "|") != strings.Join(want, "|") {
				t.Errorf("%s: files %q, want %q first", v.Name(), files, want)
			}
			sec := *d.Sections()
			line := sec.Line
			for n := 0; n < len(line); n++ {
				sec.Line = line[:n]
				dn, err := dwarf.New(sec)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := dn.LineFiles(0, ""); err == nil && len(got) >= len(files) && n < len(line) && strings.Join(got, "\x00") != strings.Join(files, "\x00") {
					t.Errorf("%s: .debug_line cut at %d: %q, no error", v.Name(), n, got)
				}
			}
			if _, err := d.LineFiles(uint64(len(line)), ""); err == nil {
				t.Errorf("%s: an offset past .debug_line is not an error", v.Name())
			}
			d.Close()
		}
	}
}
