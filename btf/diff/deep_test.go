package diff

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// chains is BTF with typedefs t1 and t2 of int behind n1 and n2 pointers.
func chains(n1, n2 int) *btf.Spec {
	s := btf.NewSpec()
	i := s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)
	for _, c := range []struct {
		name string
		n    int
	}{{"t1", n1}, {"t2", n2}} {
		prev := i
		for k := 0; k < c.n; k++ {
			prev = s.Add("", btf.KindPtr, 0, false, uint32(prev))
		}
		s.Add(c.name, btf.KindTypedef, 0, false, uint32(prev))
	}
	return s
}

// TestDeepChainsDiffer: two BTFs with the same names and counts whose
// typedefs differ only past the 64 levels a type is spelled out to
// (t1 behind 100 pointers and t2 behind 90, then the other way round)
// differ; the same chains compare equal.
func TestDeepChainsDiffer(t *testing.T) {
	if r := Compare(chains(100, 90), chains(90, 100), Options{}); r.Equal() {
		t.Errorf("typedefs behind 100 and 90 pointers compare equal to the swap")
	}
	if r := Compare(chains(100, 90), chains(100, 90), Options{}); !r.Equal() {
		t.Errorf("equal chains differ: %v", r.Diffs)
	}
	if r := Compare(chains(100000, 3), chains(100000, 3), Options{}); !r.Equal() {
		t.Errorf("equal 100,000-deep chains differ: %v", r.Diffs)
	}
}
