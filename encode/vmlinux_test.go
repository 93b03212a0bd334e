package encode

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
)

// refCounts are the non-function type counts of pahole 1.31's BTF for the
// Debian vmlinux (refBTF).
var refCounts = map[btf.Kind]int{
	btf.KindPtr: 11644, btf.KindArray: 2801, btf.KindStruct: 8211, btf.KindUnion: 1455,
	btf.KindEnum: 1757, btf.KindEnum64: 8, btf.KindFwd: 101, btf.KindTypedef: 1884,
	btf.KindConst: 2392, btf.KindVolatile: 23, btf.KindRestrict: 2, btf.KindInt: 15,
	btf.KindFloat: 1,
}

var funcKinds = []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}

// TestVmlinuxMatchesPahole131 encodes the Debian vmlinux with the default
// features and checks every non-function type against pahole 1.31's BTF:
// no semantic difference, equal counts by kind; then that the output
// passes btf check, bpftool and the kernel's verifier.
func TestVmlinuxMatchesPahole131(t *testing.T) {
	vmlinux := requireVmlinux(t)
	refBTF := reference(t, "pahole-1.31-head.btf")
	t0 := time.Now()
	got, err := EncodeFile(vmlinux, Options{Features: DefaultFeatures})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("encoded %d types in %v", got.NumTypes(), time.Since(t0))
	want, err := btf.LoadFile(refBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := diff.Compare(got, want, diff.Options{ExcludeKinds: funcKinds})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.31's (B) in non-function types:\n%s", diffText(r))
	}
	for k, n := range refCounts {
		if r.CountsA[k] != n {
			t.Errorf("%v: %d types, pahole 1.31 has %d", k, r.CountsA[k], n)
		}
	}
	// Kinds the reference has none of (TYPE_TAG, DECL_TAG) must stay absent.
	for k := btf.KindInt; k <= btf.MaxKind; k++ {
		if _, ok := refCounts[k]; !ok && k != btf.KindFuncProto && r.CountsA[k] != 0 {
			t.Errorf("%v: %d types, pahole 1.31 has none", k, r.CountsA[k])
		}
	}
	// FUNC_PROTOs that non-function types refer to (through pointers and
	// typedefs) are ours too: with the reference's functions, variables
	// and their own prototypes taken out, everything must be equal.
	r = diff.Compare(withoutFuncs(got), withoutFuncs(want), diff.Options{})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.31's without functions and variables (B):\n%s", diffText(r))
	}
	if r.CountsA[btf.KindFuncProto] != 3396 {
		t.Errorf("FUNC_PROTO: %d, pahole 1.31 has 3396 referred to by non-function types", r.CountsA[btf.KindFuncProto])
	}
	validate(t, "vmlinux", got.Marshal(nil))
}

// TestVmlinuxReproducible encodes the vmlinux with -j1, -j2, -j8 and -j32,
// five times each (once each with -short), and requires byte-identical
// output.
func TestVmlinuxReproducible(t *testing.T) {
	vmlinux := requireVmlinux(t)
	runs := 5
	if testing.Short() {
		runs = 1
	}
	var first []byte
	var firstName string
	for _, j := range []int{1, 2, 8, 32} {
		for i := 0; i < runs; i++ {
			s, err := EncodeFile(vmlinux, Options{Features: DefaultFeatures, Jobs: j})
			if err != nil {
				t.Fatal(err)
			}
			data := s.Marshal(nil)
			name := fmt.Sprintf("-j%d run %d", j, i+1)
			if first == nil {
				first, firstName = data, name
				continue
			}
			if !bytes.Equal(first, data) {
				t.Fatalf("%s: output differs from %s (sha256 %x vs %x)", name, firstName, sha256.Sum256(data), sha256.Sum256(first))
			}
		}
	}
	t.Logf("%d encodes, all byte-identical (sha256 %x)", 4*runs, sha256.Sum256(first))
}
