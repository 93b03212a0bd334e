package dwarf

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Walk runs work on every unit of d with up to workers goroutines
// (workers < 1 means runtime.GOMAXPROCS(0)) and hands each result to emit
// in unit order, whatever order the units finished in. Units are handed out
// dynamically, one at a time, in index order. Each worker owns one
// UnitReader, positioned on the unit's root DIE when work is called.
//
// emit runs on the calling goroutine. If work or emit fails, Walk stops
// handing out units and returns the error of the lowest-indexed unit that
// failed (emit having seen every unit before it), so the outcome does not
// depend on scheduling.
func Walk[R any](d *Data, workers int, work func(r *UnitReader) (R, error), emit func(u *Unit, res R) error) error {
	units := d.units
	n := len(units)
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if n == 0 {
		return nil
	}
	type result struct {
		res  R
		err  error
		done bool
	}
	results := make([]result, n)
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		next    atomic.Int64
		stopped atomic.Bool
		wg      sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := d.NewReader()
			for !stopped.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				var res R
				err := r.Reset(&units[i])
				if err == nil {
					res, err = work(r)
				}
				mu.Lock()
				results[i] = result{res: res, err: err, done: true}
				if err != nil {
					stopped.Store(true)
				}
				cond.Broadcast()
				mu.Unlock()
			}
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		mu.Lock()
		for !results[i].done {
			if stopped.Load() && int(next.Load()) <= i {
				break // unit i will never be handed out
			}
			cond.Wait()
		}
		r := results[i]
		results[i] = result{done: r.done}
		mu.Unlock()
		if !r.done {
			break
		}
		if r.err != nil {
			err = r.err
			break
		}
		if e := emit(&units[i], r.res); e != nil {
			err = e
			break
		}
	}
	stopped.Store(true)
	mu.Lock()
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	return err
}
