package layout_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/layout"
)

// TestNestedRelisted: pahole lists a struct or union again in every unit
// when a type is defined in its body between two of its members (clang's
// DWARF for an anonymous struct or union member that is not the last),
// and once otherwise (gcc's DWARF, or the nested type after the last
// member): an object of three units from testdata/nested[123].c, by
// clang and gcc, DWARF 4 and 5, listed whole, with -T and with -C,
// against the pahole on PATH (1.32) at any -j.
func TestNestedRelisted(t *testing.T) {
	testc.Require(t, "pahole", "ld")
	for _, v := range []testc.Variant{
		{CC: testc.Clang, Flags: []string{"-gdwarf-4", "-O2"}},
		{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O0"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}},
	} {
		t.Run(v.Name(), func(t *testing.T) {
			var objs []string
			for _, f := range []string{"nested1.c", "nested2.c", "nested3.c"} {
				src, err := filepath.Abs(filepath.Join("testdata", f))
				if err != nil {
					t.Fatal(err)
				}
				objs = append(objs, testc.Compile(t, src, v))
			}
			linked := filepath.Join(t.TempDir(), "nested.o")
			testc.Run(t, "ld", append([]string{"-r", "-o", linked}, objs...)...)
			want, _ := pahole(t, optionCase{}, linked)
			if v.CC == testc.Clang && strings.Count(want, "union nested_first {") != 3 {
				t.Fatalf("pahole on PATH lists union nested_first %d times from clang's DWARF, not once per unit; the fixture tests nothing:\n%s",
					strings.Count(want, "union nested_first {"), want)
			}
			for _, jobs := range []int{1, 2} {
				if got, _ := listDWARFJobs(t, linked, layout.Options{}, jobs); got != want {
					t.Errorf("-j%d: %s", jobs, diffTypes(got, want))
				}
			}
			c := optionCase{"T", []string{"-T"}, layout.Options{NrDefinitions: true}}
			want, _ = pahole(t, c, linked)
			if got, _ := listDWARF(t, linked, c.opts); got != want {
				t.Errorf("-T: got\n%s\nwant\n%s", got, want)
			}
			names := "nested_mid,nested_first,nested_none"
			c = optionCase{"C", []string{"-C", names}, layout.Options{ClassNames: strings.Split(names, ",")}}
			want, _ = pahole(t, c, linked)
			if got, _ := listDWARF(t, linked, c.opts); got != want {
				t.Errorf("-C %s: %s", names, diffTypes(got, want))
			}
		})
	}
}
