package dwarf

import (
	"runtime"
	"sync"
)

// Walk runs work on every unit of d with up to workers goroutines
// (workers < 1 means runtime.GOMAXPROCS(0)) and hands each result to emit
// in unit order, whatever order the units finished in. Units are handed out
// dynamically, one at a time, in index order. Each worker owns one
// UnitReader, positioned on the unit's root DIE when work is called.
//
// emit runs on the calling goroutine, which is also one of the workers:
// between emits it takes units itself and sleeps only when the next result
// is being made by another worker and no unit is left to take. With one
// worker everything runs on the calling goroutine. (A caller that only
// waited was woken once per unit, 2,172 times for the Debian vmlinux, and
// made a third goroutine compete with two workers for two CPUs.)
//
// At most MaxAhead(workers) units are taken ahead of the next one to emit:
// a worker that would go further waits for emit, so results pile up only
// that far when emit is slow (a blocked output) or one unit takes long.
//
// If work or emit fails, Walk stops handing out units and returns the
// error of the lowest-indexed unit that failed (emit having seen every
// unit before it), so the outcome does not depend on scheduling.
func Walk[R any](d *Data, workers int, work func(r *UnitReader) (R, error), emit func(u *Unit, res R) error) error {
	return WalkAhead(d, workers, nil, work, emit)
}

// WalkAhead is Walk with the number of units taken ahead of the next one
// to emit given by ahead, called with the number of units emitted so far
// (at least 1 is taken; nil means MaxAhead(workers) always). A caller
// that expects emit to end the walk soon (a lookup that stops once it
// has found what it wants) starts with few units ahead, so that units
// past the one it stops at are not read, and lets more run ahead as the
// walk goes on.
func WalkAhead[R any](d *Data, workers int, ahead func(emitted int) int, work func(r *UnitReader) (R, error), emit func(u *Unit, res R) error) error {
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
	if ahead == nil {
		maxAhead := MaxAhead(workers)
		ahead = func(int) int { return maxAhead }
	}
	var (
		mu   sync.Mutex
		cond = sync.NewCond(&mu)
		wg   sync.WaitGroup

		// Guarded by mu: whether the caller sleeps on cond, the next
		// unit to hand out, whether no more are, units emitted so far,
		// and how many workers wait on cond for emit to let them take
		// the next unit.
		waiting bool
		next    int
		stopped bool
		emitted int
		held    int
	)
	// take hands out the next unit, or -1 when none is left. With wait
	// (the workers) it sleeps while the next unit is too far ahead;
	// without (the caller, who emits) it returns -1 then.
	take := func(wait bool) int {
		mu.Lock()
		defer mu.Unlock()
		for {
			if stopped {
				return -1
			}
			i := next
			if i >= n {
				return -1
			}
			if i < emitted+max(1, ahead(emitted)) {
				next = i + 1
				return i
			}
			if !wait {
				return -1
			}
			held++
			cond.Wait()
			held--
		}
	}
	run := func(r *UnitReader, i int) {
		var res R
		err := r.Reset(&units[i])
		if err == nil {
			res, err = work(r)
		}
		mu.Lock()
		results[i] = result{res: res, err: err, done: true}
		if err != nil {
			stopped = true
			if held > 0 {
				cond.Broadcast()
			}
		}
		if waiting {
			cond.Broadcast()
		}
		mu.Unlock()
	}
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := d.NewReader()
			for i := take(true); i >= 0; i = take(true) {
				run(r, i)
			}
		}()
	}
	var own *UnitReader
	var err error
	for i := 0; i < n; {
		mu.Lock()
		if !results[i].done {
			mu.Unlock()
			if j := take(false); j >= 0 {
				if own == nil {
					own = d.NewReader()
				}
				run(own, j)
				continue
			}
			mu.Lock()
			for !results[i].done {
				if stopped && next <= i {
					break // unit i will never be handed out
				}
				waiting = true
				cond.Wait()
				waiting = false
			}
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
		i++
		mu.Lock()
		emitted = i
		if held > 0 {
			cond.Broadcast()
		}
		mu.Unlock()
	}
	mu.Lock()
	stopped = true
	cond.Broadcast()
	mu.Unlock()
	wg.Wait()
	return err
}

// MaxAhead is how many units Walk hands out ahead of the next to emit:
// enough that workers rarely wait behind one long unit, few enough that
// the results held stay small. Walk never holds more than MaxAhead(workers)
// results at once.
func MaxAhead(workers int) int {
	return max(32, 8*workers)
}
