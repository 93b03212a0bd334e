package encode

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestBatchCancel: a batch whose Context is cancelled when the first
// module is done starts no module after that; the modules already being
// encoded finish and are reported whole (their BTF passes Check), and
// EncodeBatch returns. For 1, 2, 8 and 32 workers, also under the race
// detector (8 modules with -short).
func TestBatchCancel(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 8
	}
	mods := splitSubset(t, n)
	base, err := LoadBase(reference(t, "embedded.btf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int{1, 2, 8, 32} {
		t.Run(fmt.Sprintf("j%d", jobs), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			reported := 0
			EncodeBatch(mods, base, BatchOptions{Options: Options{Features: DefaultFeatures}, Jobs: jobs, Context: ctx}, func(r BatchResult) error {
				cancel()
				mu.Lock()
				reported++
				mu.Unlock()
				if r.Err != nil {
					t.Errorf("%s: %v", r.Module.Name, r.Err)
				} else if err := r.Spec.Check(); err != nil {
					t.Errorf("%s: reported BTF fails Check: %v", r.Module.Name, err)
				}
				return nil
			})
			// The first module done cancels; at most the other
			// workers' modules were under way.
			if reported < 1 || reported > min(jobs, len(mods)) {
				t.Errorf("%d modules reported after a cancel at the first, with %d workers and %d modules", reported, jobs, len(mods))
			}
		})
	}
}
