package encode

// Batch encoding: many modules against one base in one process, the way a
// kernel build or a distribution runs the encoder once per module, without
// reloading the base each time.

import (
	"context"
	"errors"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/dedup"
	"github.com/btfkit/btfkit/kmod"
)

// BatchOptions controls EncodeBatch.
type BatchOptions struct {
	// Options are the encoder options for every module. Options.Jobs is
	// ignored: modules are encoded one unit at a time, Jobs modules at
	// once (the output does not depend on either). Options.Stats gets
	// the sum over the modules.
	Options
	// Jobs is the number of modules encoded at once; <= 0 means one per
	// CPU.
	Jobs int
	// Context, when not nil, stops the batch once it is done (cancelled):
	// no module is started after that, the modules being encoded finish
	// and are reported, and EncodeBatch returns. The modules never
	// started are not reported (done is not called for them).
	Context context.Context
}

// BatchResult is the outcome for one module of a batch.
type BatchResult struct {
	Index  int         // the module's index in the input
	Module kmod.Module // the module
	Spec   *btf.Spec   // its BTF (split against the base, if any); nil on error
	Err    error       // what went wrong, naming the file; ErrExcluded (no failure) when every unit is of an excluded language
}

// EncodeBatch encodes every module, split against base (nil: standalone
// BTF), Jobs at a time, and calls done with each module's result as soon
// as it is ready: from several goroutines at once, in no particular order.
// Each module's BTF is what EncodeSplit gives for it alone. A module that
// fails does not stop the others; EncodeBatch returns the number of
// failures (a module whose every unit is of an excluded language, whose
// Err is ErrExcluded, is none). done may return an error (say, writing the output failed);
// it is counted as that module's failure, and done is not called again for
// it.
func EncodeBatch(mods []kmod.Module, base *dedup.Base, o BatchOptions, done func(BatchResult) error) (failed int) {
	total := o.Jobs
	if total <= 0 {
		total = runtime.NumCPU()
	}
	jobs := min(total, len(mods))
	moduleOpts := o.Options
	// One unit at a time per module; fewer modules than jobs share the
	// rest between them.
	moduleOpts.Jobs = max(1, total/max(1, len(mods)))
	order := largestFirst(mods)
	var next atomic.Int64
	var nfail atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if o.Context != nil && o.Context.Err() != nil {
					return
				}
				k := int(next.Add(1) - 1)
				if k >= len(mods) {
					return
				}
				i := order[k]
				r := BatchResult{Index: i, Module: mods[i]}
				mo := moduleOpts
				if o.Stats != nil {
					mo.Stats = new(Stats)
				}
				r.Spec, r.Err = EncodeSplit(mods[i].Path, base, mo)
				if o.Stats != nil {
					o.Stats.Add(mo.Stats)
				}
				if err := done(r); err != nil && r.Err == nil {
					r.Err = err
				}
				if r.Err != nil && !errors.Is(r.Err, ErrExcluded) {
					nfail.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(nfail.Load())
}

// largestFirst returns the indexes of mods, largest file first (input
// order among equal sizes; a file that cannot be read counts as empty):
// the big modules start early and the small ones fill in at the end, so
// that no worker is left alone with a big one while the others idle.
func largestFirst(mods []kmod.Module) []int {
	size := make([]int64, len(mods))
	order := make([]int, len(mods))
	for i, m := range mods {
		order[i] = i
		if st, err := os.Stat(m.Path); err == nil {
			size[i] = st.Size()
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return order
}
