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

var funcKinds = []btf.Kind{btf.KindFunc, btf.KindFuncProto, btf.KindVar, btf.KindDatasec}

// TestVmlinuxMatchesPahole132 encodes the Debian vmlinux with the default
// features and checks every non-function type against pahole 1.32's BTF
// (pahole-1.32/debian-6.1.0-57-cloud.btf): no semantic difference, equal
// counts by kind; then that the output passes btf check, bpftool and the
// kernel's verifier.
func TestVmlinuxMatchesPahole132(t *testing.T) {
	vmlinux := requireVmlinux(t)
	refBTF := vmlinux132(t)
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
		t.Errorf("our BTF (A) differs from pahole 1.32's (B) in non-function types:\n%s", diffText(r))
	}
	for k := btf.KindInt; k <= btf.MaxKind; k++ {
		if k == btf.KindFuncProto || k == btf.KindFunc || k == btf.KindVar || k == btf.KindDatasec {
			continue
		}
		if r.CountsA[k] != r.CountsB[k] {
			t.Errorf("%v: %d types, pahole 1.32 has %d", k, r.CountsA[k], r.CountsB[k])
		}
	}
	// One ARRAY per dimension: pahole 1.32 has ARRAYs of ARRAYs.
	nested := 0
	for id := btf.TypeID(1); id < want.NextID(); id++ {
		if a := want.Type(id); a.Kind() == btf.KindArray && want.Type(a.Array().Elem).Kind() == btf.KindArray {
			nested++
		}
	}
	if nested == 0 {
		t.Error("pahole 1.32's BTF has no ARRAY of an ARRAY: the reference is not 1.32's")
	}
	// FUNC_PROTOs that non-function types refer to (through pointers and
	// typedefs) are ours too: with the reference's functions, variables
	// and their own prototypes taken out, everything must be equal.
	r = diff.Compare(withoutFuncs(got), withoutFuncs(want), diff.Options{})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.32's without functions and variables (B):\n%s", diffText(r))
	}
	if r.CountsA[btf.KindFuncProto] != r.CountsB[btf.KindFuncProto] {
		t.Errorf("FUNC_PROTO: %d, pahole 1.32 has %d referred to by non-function types", r.CountsA[btf.KindFuncProto], r.CountsB[btf.KindFuncProto])
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
