package pfunct_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testc"
)

// TestAtomic: prototypes with C11 _Atomic parameters and typedefs
// (testdata/atomic.c) from DWARF, against pfunct 1.32 at test time. Only
// DWARF: BTF has no _Atomic, and pahole 1.32 -J refuses
// DW_TAG_atomic_type.
func TestAtomic(t *testing.T) {
	testc.Require(t, "pfunct")
	ours := pfunctLink(t)
	src, err := filepath.Abs(filepath.Join("testdata", "atomic.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			obj := testc.Compile(t, src, v)
			dir := filepath.Dir(obj)
			for _, args := range [][]string{nil, {"-P"}, {"-V"}, {"-b"}, {"--compile"}, {"-f", "swap_slot", "-b"}} {
				args := append(append([]string{}, args...), filepath.Base(obj))
				want := runTool(t, dir, "pfunct", args...)
				got := runTool(t, dir, ours, args...)
				if got != want {
					t.Errorf("pfunct %s: differs from pfunct 1.32:\n%s", strings.Join(args, " "), diffLines(got, want))
				}
				if args[0] == "-P" && strings.HasPrefix(v.Name(), "gcc") && strings.Contains(v.Name(), "dwarf-5") && !strings.Contains(got.out, "_Atomic") {
					t.Errorf("pfunct -P: no _Atomic in gcc's DWARF 5 prototypes:\n%s", got.out)
				}
			}
		})
	}
}
