package layout_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testc"
	"github.com/btfkit/btfkit/layout"
)

// TestFixturesDiffer: testdata/differ.c, whose types pahole 1.31 prints
// differently from 1.24 ("XXX last struct has" notes, "member types with"
// and "flexible array members" summaries, typedefs of anonymous structs).
// The expected outputs are pahole 1.31's, made by scripts/layout-testdata
// with the same compilers and flags on a machine with 64-byte cache lines
// (a different compiler version that lays the fixture's DWARF out
// differently shows up here first).
func TestFixturesDiffer(t *testing.T) {
	testc.Require(t, "pahole")
	src, err := filepath.Abs(filepath.Join("testdata", "differ.c"))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Split("uses_inner,anon_typedef,nested_flex,anon_holes", ",")
	for _, cc := range []testc.Compiler{testc.GCC, testc.Clang} {
		for _, dw := range []string{"-gdwarf-4", "-gdwarf-5"} {
			v := testc.Variant{CC: cc, Flags: []string{dw, "-O2"}}
			obj := testc.Compile(t, src, v)
			cp := filepath.Join(t.TempDir(), "btf.o")
			b, err := os.ReadFile(obj)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cp, b, 0o644); err != nil {
				t.Fatal(err)
			}
			testc.Run(t, "pahole", "-J", cp)
			s, err := btf.LoadFile(cp, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				file  string
				dwarf bool
				opts  layout.Options
			}{
				{"dwarf", true, layout.Options{CachelineSize: 64}},
				{"dwarf-hex", true, layout.Options{CachelineSize: 64, Hex: true}},
				{"dwarf-C", true, layout.Options{CachelineSize: 64, ClassNames: names}},
				{"btf", false, layout.Options{CachelineSize: 64}},
				{"btf-C", false, layout.Options{CachelineSize: 64, ClassNames: names}},
			} {
				want := readFile(t, filepath.Join("testdata", "differ-"+v.Name()+"-"+c.file+".txt"))
				var got string
				if c.dwarf {
					got, _ = listDWARF(t, obj, c.opts)
				} else {
					got, _ = listBTF(t, s, c.opts)
				}
				if got != want {
					t.Errorf("%s %s: %s", v.Name(), c.file, diffTypes(got, want))
				}
			}
		}
	}
}
