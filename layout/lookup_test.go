package layout_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/input"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// lookupCases are -C lookups in the three units of testdata/lookup*.c:
// names every unit defines alike (outer, from lookup.h) or differently
// (variant), names one unit defines (first_only, second_only,
// second_union, third_only), -E (--expand_types) on types whose members
// are structs, and names no unit has. stop is the index of the unit where
// pahole stops reading (every name found), or -1 when it reads them all.
var lookupCases = []struct {
	args []string
	opts layout.Options
	stop int
}{
	{[]string{"-C", "outer"}, layout.Options{ClassNames: []string{"outer"}}, 0},
	{[]string{"-C", "variant"}, layout.Options{ClassNames: []string{"variant"}}, 0},
	{[]string{"-C", "second_union"}, layout.Options{ClassNames: []string{"second_union"}}, 1},
	{[]string{"-C", "variant,second_only"}, layout.Options{ClassNames: []string{"variant", "second_only"}}, 1},
	{[]string{"-C", "third_only,variant"}, layout.Options{ClassNames: []string{"third_only", "variant"}}, 2},
	{[]string{"-E", "-C", "first_only"}, layout.Options{ExpandTypes: true, ClassNames: []string{"first_only"}}, 0},
	{[]string{"--expand_types", "-C", "second_only,outer"}, layout.Options{ExpandTypes: true, ClassNames: []string{"second_only", "outer"}}, 1},
	{[]string{"-C", "second_only,missing_one,third_only"}, layout.Options{ClassNames: []string{"second_only", "missing_one", "third_only"}}, -1},
	{[]string{"-C", "no_such_type"}, layout.Options{ClassNames: []string{"no_such_type"}}, -1},
}

// TestLookupDWARF: -C from DWARF as the commands run it (a lookup walk,
// encode.Options.Lookup, ended once every name was found) prints what
// pahole 1.32 prints and what the same listing prints when it reads
// every unit; and it converts no unit past the one where pahole stops.
// On a program linked from three gcc units (testdata/lookup*.c), whose
// unit headers are read from the file, and on the same units linked
// with ld -r, whose debug sections are relocated copies.
func TestLookupDWARF(t *testing.T) {
	testc.Require(t, "pahole", "gcc", "ld")
	for _, v := range []testc.Variant{
		{CC: testc.GCC, Flags: []string{"-g", "-O2"}},
		{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O0"}},
	} {
		var objs []string
		for _, f := range []string{"lookup1.c", "lookup2.c", "lookup3.c"} {
			src, err := filepath.Abs(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			objs = append(objs, testc.Compile(t, src, v))
		}
		dir := t.TempDir()
		prog, rel := filepath.Join(dir, "lookup"), filepath.Join(dir, "lookup.o")
		testc.Run(t, "gcc", append([]string{"-o", prog}, objs...)...)
		testc.Run(t, "ld", append([]string{"-r", "-o", rel}, objs...)...)
		for _, path := range []string{prog, rel} {
			units := countUnits(t, path)
			if units != 3 {
				t.Fatalf("%s has %d units with types, want the 3 of lookup*.c", path, units)
			}
			for _, c := range lookupCases {
				name := v.Name() + "/" + filepath.Base(path) + "/" + strings.Join(c.args, " ")
				t.Run(name, func(t *testing.T) {
					want, wantMissing := pahole(t, optionCase{args: c.args}, path)
					full := listDWARFSerialMany(t, path, []layout.Options{c.opts})[0]
					if full != want {
						t.Errorf("every unit read: pahole %s: %s", strings.Join(c.args, " "), diffTypes(full, want))
					}
					for _, jobs := range []int{1, 2} {
						if got, missing := listFiles(t, path, c.opts, jobs); got != want || missing != wantMissing {
							t.Errorf("-j%d: ListFiles: pahole %s: missing %q, want %q; %s", jobs, strings.Join(c.args, " "), missing, wantMissing, diffTypes(got, want))
						}
						got, missing, converted := lookupDWARF(t, path, c.opts, jobs)
						if got != want {
							t.Errorf("-j%d: pahole %s: %s", jobs, strings.Join(c.args, " "), diffTypes(got, want))
						}
						if missing != wantMissing {
							t.Errorf("-j%d: type not found: %q, want %q", jobs, missing, wantMissing)
						}
						// A lookup walk converts one unit at a time
						// until four were emitted (encode's
						// lookupAhead), so it stops right after the
						// unit where the last name was found.
						wantConverted := c.stop + 1
						if c.stop < 0 {
							wantConverted = units
						}
						if converted != wantConverted {
							t.Errorf("-j%d: %d units converted, want %d", jobs, converted, wantConverted)
						}
					}
				})
			}
		}
	}
}

// listFiles lists path as the commands do (Listing.ListFiles), DWARF
// only; it returns the text and the name reported missing.
func listFiles(t *testing.T, path string, o layout.Options, jobs int) (out, missing string) {
	t.Helper()
	l := layout.NewListing(o)
	var buf bytes.Buffer
	if err := l.ListFiles(&buf, []string{path}, layout.Inputs{Formats: input.Formats{input.DWARF}, Jobs: jobs}); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	missing, _ = l.Missing()
	return buf.String(), missing
}

// lookupDWARF lists path's DWARF as ListFiles does for -C: a lookup walk
// whose emit ends it once the listing says every name was found. It
// returns the text, the name reported missing, and how many units were
// converted.
func lookupDWARF(t *testing.T, path string, o layout.Options, jobs int) (out, missing string, converted int) {
	t.Helper()
	l := layout.NewListing(o)
	b := l.NewBatch()
	var buf bytes.Buffer
	errStop := errors.New("stop")
	var n atomic.Int32 // prepare runs in the workers
	err := encode.MapUnits(path, encode.Options{Features: encode.DefaultFeatures, Jobs: jobs, Lookup: true},
		func(u encode.Unit) (*layout.Prepared, error) {
			n.Add(1)
			return b.Prepare(u.Index, u.Name, u.Spec, u.Facts), nil
		}, func(p *layout.Prepared) error {
			stop, err := b.Write(&buf, p)
			if err == nil && stop {
				err = errStop
			}
			return err
		})
	if err != nil && !errors.Is(err, errStop) {
		t.Fatalf("%s: %v", path, err)
	}
	if err := l.Finish(&buf); err != nil {
		t.Fatal(err)
	}
	missing, _ = l.Missing()
	return buf.String(), missing, int(n.Load())
}

// countUnits is the number of units encode hands out for path.
func countUnits(t *testing.T, path string) int {
	t.Helper()
	n := 0
	if err := encode.EachUnit(path, encode.Options{Features: encode.DefaultFeatures}, func(encode.Unit) error { n++; return nil }); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// TestLookupVmlinux: `-C task_struct` of the Debian vmlinux converts two
// of its 2,172 units (task_struct is in the second, head64.c) and, run in
// a child process as the commands run it (ListFiles), peaks at a fraction
// of the RSS of walking them all:
// nothing of the units past the stop is read, nor a page around every
// unit header (pahole 1.32 peaks at ~125 MiB). A memory bound, not a
// timing.
func TestLookupVmlinux(t *testing.T) {
	if testenv.InPeakRSSChild() {
		o := layout.Options{ClassNames: []string{"task_struct"}}
		out, missing := listFiles(t, os.Getenv("VMLINUX"), o, 2)
		if !strings.HasPrefix(out, "struct task_struct {") || missing != "" {
			t.Fatalf("-C task_struct: missing %q, printed:\n%.300s", missing, out)
		}
		testenv.ReportPeakRSS(t)
		return
	}
	if testing.Short() {
		t.Skip("SKIP: -short (reads the vmlinux)")
	}
	v, _ := testenv.KernelInputs(t)
	kb, _ := testenv.PeakRSS(t, "TestLookupVmlinux", "VMLINUX="+v)
	_, _, converted := lookupDWARF(t, v, layout.Options{ClassNames: []string{"task_struct"}}, 2)
	t.Logf("-C task_struct of %s: %d units converted, peak RSS %d KiB", v, converted, kb)
	if converted != 2 {
		t.Errorf("%d units converted, want 2 (task_struct is in the second)", converted)
	}
	// Measured: 20 MiB; 35 MiB when ListFiles does not ask for a lookup
	// walk (32 units converted past the stop); ~125 MiB when every
	// unit header was read through the mapping and every unit walked.
	if kb > 30<<10 {
		t.Errorf("peak RSS %d KiB > 30 MiB", kb)
	}
}
