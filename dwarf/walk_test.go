package dwarf

import (
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

var digestSeed = maphash.MakeSeed()

// unitDigest hashes everything a full walk of one unit yields: offsets,
// tags, depths, attributes, forms, classes, values, strings and bytes.
func unitDigest(r *UnitReader) (uint64, error) {
	d := r.Data()
	var h uint64 = 14695981039346656037
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	var e Entry
	for {
		ok, err := r.Next(&e)
		if err != nil {
			return 0, err
		}
		if !ok {
			return h, nil
		}
		mix(uint64(e.Offset))
		mix(uint64(e.Tag)<<32 | uint64(e.Depth))
		for i := range e.Fields {
			f := &e.Fields[i]
			mix(uint64(f.Attr)<<32 | uint64(f.Form)<<8 | uint64(f.Class))
			if f.Class == ClassString {
				s, err := d.String(f)
				if err != nil {
					return 0, err
				}
				mix(maphash.String(digestSeed, s))
			} else if f.HasBytes() {
				mix(maphash.Bytes(digestSeed, d.Bytes(f)))
			} else {
				mix(f.Val)
			}
		}
	}
}

func walkDigests(t *testing.T, d *Data, workers int) []uint64 {
	var out []uint64
	err := Walk(d, workers, unitDigest, func(u *Unit, h uint64) error {
		if u.Index != len(out) {
			return fmt.Errorf("unit %d emitted at position %d", u.Index, len(out))
		}
		out = append(out, h)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalDigests(t *testing.T, label string, a, b []uint64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d units vs %d", label, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: unit %d differs", label, i)
		}
	}
}

// TestWalkWorkers checks that Walk yields the same results, in unit order,
// for 1, 2, 8 and 32 workers: on a module sample (also under -race) and,
// when not -short, on the Debian vmlinux.
func TestWalkWorkers(t *testing.T) {
	paths := testenv.ModuleSample(t, 4)
	if !testing.Short() && !raceEnabled {
		v, _ := testenv.KernelInputs(t)
		paths = append(paths, v)
	}
	for _, p := range paths {
		d, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		want := walkDigests(t, d, 1)
		if len(want) != len(d.Units()) {
			t.Fatalf("%s: %d results for %d units", p, len(want), len(d.Units()))
		}
		for _, j := range []int{2, 8, 32} {
			// A fresh Data each time, so unit contexts are built
			// concurrently too.
			d2, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			equalDigests(t, fmt.Sprintf("%s -j%d", filepath.Base(p), j), want, walkDigests(t, d2, j))
			d2.Close()
		}
		d.Close()
	}
}

// TestWalkErrorOrder checks that Walk reports the error of the lowest
// failing unit, whatever the number of workers, after emitting exactly
// the units before it.
func TestWalkErrorOrder(t *testing.T) {
	paths := testenv.ModuleSample(t, 1)
	d, err := Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if len(d.Units()) < 2 {
		t.Fatalf("%s has %d units; the test needs several", paths[0], len(d.Units()))
	}
	fail := len(d.Units()) / 2
	for _, j := range []int{1, 2, 8, 32} {
		emitted := 0
		err := Walk(d, j, func(r *UnitReader) (int, error) {
			if r.Unit().Index >= fail {
				return 0, fmt.Errorf("unit %d failed", r.Unit().Index)
			}
			return r.Unit().Index, nil
		}, func(u *Unit, i int) error {
			if i != emitted {
				t.Fatalf("-j%d: emitted %d at position %d", j, i, emitted)
			}
			emitted++
			return nil
		})
		if err == nil || err.Error() != fmt.Sprintf("unit %d failed", fail) || emitted != fail {
			t.Fatalf("-j%d: err %v after %d units; want unit %d's error after %d", j, err, emitted, fail, fail)
		}
	}
}

// TestWalkAhead checks that workers take no unit more than MaxAhead
// units past the next one to emit while emit is held up (an output that
// blocks), and that the walk still ends with every unit emitted in order.
func TestWalkAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short (needs the vmlinux's many units)")
	}
	v, _ := testenv.KernelInputs(t)
	d, err := Open(v)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n := len(d.Units())
	for _, j := range []int{2, 8} {
		if n < 4*MaxAhead(j) {
			t.Fatalf("%s has %d units; the test needs more than %d", v, n, 4*MaxAhead(j))
		}
		var emitted, furthest atomic.Int64
		err := Walk(d, j, func(r *UnitReader) (int, error) {
			i := r.Unit().Index
			for {
				f := furthest.Load()
				if int64(i) <= f || furthest.CompareAndSwap(f, int64(i)) {
					break
				}
			}
			if ahead := i - int(emitted.Load()); ahead >= MaxAhead(j) {
				return 0, fmt.Errorf("unit %d taken with %d emitted: more than %d ahead", i, emitted.Load(), MaxAhead(j))
			}
			return i, nil
		}, func(u *Unit, i int) error {
			if i != int(emitted.Load()) {
				return fmt.Errorf("emitted %d at position %d", i, emitted.Load())
			}
			if i%500 == 0 {
				time.Sleep(50 * time.Millisecond) // a blocked output
				if f := furthest.Load(); f >= int64(i+MaxAhead(j)) {
					return fmt.Errorf("after unit %d, unit %d was taken", i, f)
				}
			}
			emitted.Add(1)
			return nil
		})
		if err != nil {
			t.Fatalf("-j%d: %v", j, err)
		}
		if int(emitted.Load()) != n {
			t.Fatalf("-j%d: %d of %d units emitted", j, emitted.Load(), n)
		}
	}
}

// TestWalkAllocs checks that a full walk of the Debian vmlinux allocates
// in proportion to units, not DIEs (14 million of them).
func TestWalkAllocs(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("SKIP: -race or -short")
	}
	v, _ := testenv.KernelInputs(t)
	d0, err := Open(v)
	if err != nil {
		t.Fatal(err)
	}
	defer d0.Close()
	units := len(d0.Units())
	allocs := testing.AllocsPerRun(1, func() {
		resetDecls()
		d, err := New(d0.sec)
		if err != nil {
			t.Fatal(err)
		}
		if err := Walk(d, 2, fullWalk, func(*Unit, int) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("vmlinux: %.0f allocations per full walk, %d units (%.1f per unit)", allocs, units, allocs/float64(units))
	if allocs > float64(16*units+1000) {
		t.Errorf("%.0f allocations for %d units: more than 16 per unit", allocs, units)
	}
}

// TestWalkRSS runs a full two-worker walk of the Debian vmlinux in a child
// process and checks its peak RSS (mapped file pages included) is at most
// 300 MiB.
func TestWalkRSS(t *testing.T) {
	if testenv.InPeakRSSChild() {
		d, err := Open(os.Getenv("VMLINUX"))
		if err != nil {
			t.Fatal(err)
		}
		if err := Walk(d, 2, fullWalk, func(*Unit, int) error { return nil }); err != nil {
			t.Fatal(err)
		}
		testenv.ReportPeakRSS(t)
		return
	}
	if raceEnabled {
		t.Skip("SKIP: -race")
	}
	v, _ := testenv.KernelInputs(t)
	kb, state := testenv.PeakRSS(t, "TestWalkRSS", "VMLINUX="+v)
	mib := float64(kb) / 1024
	t.Logf("peak RSS of a 2-worker full walk of vmlinux: %.0f MiB (user %v, sys %v)", mib,
		state.UserTime(), state.SystemTime())
	if mib > 300 {
		t.Errorf("peak RSS %.0f MiB > 300 MiB", mib)
	}
}
