package encode

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// TestMapUnitsOrder: MapUnits hands emit every unit of xfs.ko once, in
// unit order, at any -j, and the Spec each worker builds (presized,
// unitSpec) is byte for byte the unit's fragment as Fragments converts it.
func TestMapUnitsOrder(t *testing.T) {
	path := testenv.Module(t, "xfs")
	want, err := Fragments(path, Options{Features: DefaultFeatures, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 50 {
		t.Fatalf("%s: %d units; the test needs many", path, len(want))
	}
	for _, jobs := range []int{1, 2, 8} {
		next := 0
		err := MapUnits(path, Options{Features: DefaultFeatures, Jobs: jobs}, func(u Unit) (Unit, error) {
			return u, nil
		}, func(u Unit) error {
			if u.Index != next {
				return fmt.Errorf("unit %d emitted when %d was next", u.Index, next)
			}
			if next >= len(want) {
				return fmt.Errorf("unit %d: Fragments has %d", next, len(want))
			}
			if got, w := u.Spec.Marshal(nil), want[next].Marshal(nil); !bytes.Equal(got, w) {
				return fmt.Errorf("unit %d (%s): Spec of %d bytes differs from the fragment's %d", next, u.Name, len(got), len(w))
			}
			next++
			return nil
		})
		if err != nil {
			t.Fatalf("-j%d: %v", jobs, err)
		}
		if next != len(want) {
			t.Fatalf("-j%d: %d units emitted, want %d", jobs, next, len(want))
		}
	}
}

// TestMapUnitsError: when prepare fails on more than one unit, MapUnits
// returns the error of the first in unit order, naming the file, after
// emit saw exactly the units before it, whatever the workers' timing.
func TestMapUnitsError(t *testing.T) {
	path := testenv.Module(t, "xfs")
	errA, errB := errors.New("prepare failed on unit 9"), errors.New("prepare failed on unit 40")
	for _, jobs := range []int{1, 2, 8} {
		var seen []int
		err := MapUnits(path, Options{Features: DefaultFeatures, Jobs: jobs}, func(u Unit) (int, error) {
			switch u.Index {
			case 9:
				return 0, errA
			case 40:
				return 0, errB
			}
			return u.Index, nil
		}, func(i int) error {
			seen = append(seen, i)
			return nil
		})
		if !errors.Is(err, errA) {
			t.Fatalf("-j%d: %v, want unit 9's error", jobs, err)
		}
		if msg := err.Error(); !bytes.Contains([]byte(msg), []byte(path)) {
			t.Errorf("-j%d: %q does not name %s", jobs, msg, path)
		}
		if fmt.Sprint(seen) != "[0 1 2 3 4 5 6 7 8]" {
			t.Errorf("-j%d: emit saw %v, want units 0 to 8", jobs, seen)
		}
	}
}
