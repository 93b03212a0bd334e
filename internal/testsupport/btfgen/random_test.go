package btfgen

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/kernload"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestRandomIsValid: Random makes BTF that Check accepts, whatever the
// bytes, and the same BTF for the same bytes; it uses every kind. The
// running kernel (BPF_BTF_LOAD) accepts the first few hundred too.
func TestRandomIsValid(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	kinds := map[btf.Kind]bool{}
	kernel := true
	for i := 0; i < 3000; i++ {
		data := make([]byte, r.Intn(400))
		r.Read(data)
		s := Random(data, 500)
		if err := s.Check(); err != nil {
			var ce *btf.CheckError
			if errors.As(err, &ce) {
				for _, p := range ce.Problems {
					t.Errorf("input %d: %v", i, p)
				}
			}
			t.Fatalf("input %d: %v", i, err)
		}
		if kernel && i < 300 {
			err := kernload.Load(s.Marshal(nil))
			if errors.Is(err, kernload.ErrNotPermitted) {
				testenv.SkipPartOrFail(t, "the kernel as an oracle: %v", err)
				kernel = false
			} else if err != nil {
				t.Fatalf("input %d: Check accepts it, the kernel does not: %v", i, err)
			}
		}
		if string(Random(data, 500).Marshal(nil)) != string(s.Marshal(nil)) {
			t.Fatalf("input %d: two runs differ", i)
		}
		for id := btf.TypeID(1); id < s.NextID(); id++ {
			kinds[s.Type(id).Kind()] = true
		}
	}
	for k := btf.KindInt; k <= btf.MaxKind; k++ {
		if !kinds[k] {
			t.Errorf("no %v made", k)
		}
	}
}
