package layout_test

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/layout"
)

// TestFixturesDiffer: testdata/differ.c, whose types pahole 1.25 and later
// print differently from Debian's 1.24 ("XXX last struct has" notes,
// "member types with" and "flexible array members" summaries, typedefs of
// anonymous structs), from gcc and clang (DWARF 4 and 5, -O0 and -O2) and
// from the BTF pahole -J makes of them, against the pahole on PATH (1.32).
func TestFixturesDiffer(t *testing.T) {
	testc.Require(t, "pahole")
	names := "uses_inner,anon_typedef,nested_flex,anon_holes"
	cases := []optionCase{
		{"default", nil, layout.Options{}},
		{"hex", []string{"--hex"}, layout.Options{Hex: true}},
		{"C", []string{"-C", names}, layout.Options{ClassNames: strings.Split(names, ",")}},
	}
	for variant, obj := range fixtureObjects(t, "differ.c") {
		cp, s := btfObject(t, obj)
		for _, c := range cases {
			c.opts.CachelineSize = 64
			t.Run(variant+"/dwarf/"+c.name, func(t *testing.T) {
				want, _ := pahole(t, c, obj)
				if got, _ := listDWARF(t, obj, c.opts); got != want {
					t.Errorf("pahole %s %s: %s", strings.Join(c.args, " "), obj, diffTypes(got, want))
				}
			})
			t.Run(variant+"/btf/"+c.name, func(t *testing.T) {
				want, _ := pahole(t, c, "-F", "btf", cp)
				if got, _ := listBTF(t, s, c.opts); got != want {
					t.Errorf("pahole -F btf %s %s: %s", strings.Join(c.args, " "), cp, diffTypes(got, want))
				}
			})
		}
	}
}
