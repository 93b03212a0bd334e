package pfunct_test

import (
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestAtomic: prototypes with C11 _Atomic parameters and typedefs
// (testdata/atomic.c) from DWARF, against pfunct 1.32 at test time. Only
// DWARF: BTF has no _Atomic, and pahole 1.32 -J refuses
// DW_TAG_atomic_type.
func TestAtomic(t *testing.T) {
	ours, src := oracleSetup(t, "atomic.c")
	for _, v := range testc.DWARFVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			obj := testc.Compile(t, src, v)
			res := comparePfunct(t, ours, obj, [][]string{{"-P"}, nil, {"-V"}, {"-b"}, {"--compile"}, {"-f", "swap_slot", "-b"}})
			if strings.HasPrefix(v.Name(), "gcc") && strings.Contains(v.Name(), "dwarf-5") && !strings.Contains(res[0].out, "_Atomic") {
				t.Errorf("pfunct -P: no _Atomic in gcc's DWARF 5 prototypes:\n%s", res[0].out)
			}
		})
	}
}
