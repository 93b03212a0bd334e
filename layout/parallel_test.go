package layout_test

import (
	"bytes"
	"testing"

	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/layout"
)

// A Batch prints a DWARF file's units on many goroutines: its output must
// be NamedUnit's, unit by unit in order, for any number of workers. The
// cases below take each of its ways: the plain listing; anonymous types
// (listed without a key) with a one-line formatter; a filter that needs
// the members (holes) while preparing; nested types, -E and a prefix;
// -X and -I (declaration facts); and --packed, which a Batch hands to
// NamedUnit whole.
var batchCases = []struct {
	name string
	opts layout.Options
}{
	{"plain", layout.Options{CachelineSize: 64}}, // pahole's listing: TestBatchVmlinux holds it to pahole 1.32's
	{"-a -A -s", layout.Options{AnonInclude: true, NestedAnonInclude: true, Sizes: true}},
	{"-H 2 --hex", layout.Options{NrHoles: 2, Hex: true}},
	{"--show_private_classes -E -y s", layout.Options{ShowPrivateClasses: true, ExpandTypes: true, IncludePrefix: prefix("s")}},
	{"-X fs/xfs/libxfs -I -c 32", layout.Options{CUExcludePrefix: prefix("fs/xfs/libxfs"), ShowDeclInfo: true, CachelineSize: 32}},
	{"--packed", layout.Options{JustPacked: true}},
}

// listDWARFSerialMany lists the DWARF of path once per set of options,
// in one walk, handing each unit to each listing's NamedUnit in order.
func listDWARFSerialMany(t *testing.T, path string, opts []layout.Options) []string {
	t.Helper()
	ls := make([]*layout.Listing, len(opts))
	bufs := make([]bytes.Buffer, len(opts))
	eo := encode.Options{Features: encode.DefaultFeatures}
	for i, o := range opts {
		ls[i] = layout.NewListing(o)
		eo.DeclInfo = eo.DeclInfo || o.ShowDeclInfo || o.DeclExcludePrefix != nil
	}
	err := encode.EachUnit(path, eo, func(u encode.Unit) error {
		for i, l := range ls {
			if _, err := l.NamedUnit(&bufs[i], u.Name, u.Spec, u.Facts); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := make([]string, len(opts))
	for i := range bufs {
		out[i] = bufs[i].String()
	}
	return out
}

// checkBatches compares the Batch listings of path at -j1, -j2 and -j8
// with the serial ones, for the first n cases, and returns the serial
// ones.
func checkBatches(t *testing.T, path string, n int) []string {
	t.Helper()
	cases := batchCases[:n]
	opts := make([]layout.Options, n)
	for i, c := range cases {
		opts[i] = c.opts
	}
	want := listDWARFSerialMany(t, path, opts)
	for i, w := range want {
		if w == "" {
			t.Fatalf("%s: the serial listing is empty", cases[i].name)
		}
	}
	for _, jobs := range []int{1, 2, 8} {
		got, _ := listDWARFBatches(t, path, opts, jobs)
		for i, c := range cases {
			if got[i] != want[i] {
				t.Errorf("-j%d %s: %s", jobs, c.name, diffTypes(got[i], want[i]))
			}
		}
	}
	return want
}

// TestBatchModule: xfs.ko's 104 units (short enough for -race).
func TestBatchModule(t *testing.T) {
	checkBatches(t, testenv.Module(t, "xfs"), len(batchCases))
}

// TestBatchVmlinux: the vmlinux's 2,172 units, whose types repeat across
// units far more. The plain listing is pahole 1.32's (acceptance 2 of
// issue 14) serially and so, byte for byte, at -j1, -j2 and -j8.
func TestBatchVmlinux(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: -short: converts the whole vmlinux DWARF four times")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	serial := checkBatches(t, vmlinux, 3)
	if want := readFile(t, testenv.Reference(t, refDir+"layout-dwarf-pahole-1.32.txt")); serial[0] != want {
		t.Errorf("pahole vmlinux, serially: %s", diffTypes(serial[0], want))
	}
}

// TestBatchWriteBeforePrepare: writing a unit whose predecessor was
// never prepared is an error, not a hang.
func TestBatchWriteBeforePrepare(t *testing.T) {
	_, s := embeddedBTF(t)
	b := layout.NewListing(layout.Options{}).NewBatch()
	p := b.Prepare(1, "", s, nil)
	var out bytes.Buffer
	_, err := b.Write(&out, p)
	if err == nil || out.Len() != 0 {
		t.Fatalf("Write of input 1 before input 0 was prepared: %v, %d bytes", err, out.Len())
	}
}
