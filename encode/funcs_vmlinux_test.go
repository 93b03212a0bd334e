package encode

import (
	"sort"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/btf/diff"
)

const refGlobalVarBTF = "/work/shared/reference/debian-6.1.0-57-cloud/pahole-1.31-head-global_var.btf"

// encodeVmlinux encodes the Debian vmlinux once per feature set for the
// tests of this file.
func encodeVmlinux(t *testing.T, feat Features, rep *FuncReport) *btf.Spec {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIP: vmlinux-sized encode in -short mode")
	}
	vmlinux := requireVmlinux(t)
	s, err := EncodeFile(vmlinux, Options{Features: feat, Report: rep})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestVmlinuxFuncsMatchPahole131 requires the whole BTF of the Debian
// vmlinux with default features, functions and per-CPU variables
// included, to equal pahole 1.31's: no semantic difference at all (FUNC
// names, linkage, prototypes with parameter names and types, VARs and the
// DATASEC), and the same counts of every kind (41,400 FUNCs, 357 VARs).
func TestVmlinuxFuncsMatchPahole131(t *testing.T) {
	requireFile(t, refBTF)
	var rep FuncReport
	got := encodeVmlinux(t, DefaultFeatures, &rep)
	want, err := btf.LoadFile(refBTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := diff.Compare(got, want, diff.Options{})
	if !r.Equal() {
		t.Errorf("our BTF (A) differs from pahole 1.31's (B):\n%s", diffText(r))
	}
	for k := btf.KindInt; k <= btf.MaxKind; k++ {
		if r.CountsA[k] != r.CountsB[k] {
			t.Errorf("%v: %d, pahole 1.31 has %d", k, r.CountsA[k], r.CountsB[k])
		}
	}
	if r.CountsA[btf.KindFunc] != 41400 || r.CountsA[btf.KindVar] != 357 {
		t.Errorf("FUNC %d VAR %d, want 41400 and 357", r.CountsA[btf.KindFunc], r.CountsA[btf.KindVar])
	}
	if rep.Encoded != r.CountsA[btf.KindFunc] {
		t.Errorf("report: %d functions encoded, BTF has %d FUNCs", rep.Encoded, r.CountsA[btf.KindFunc])
	}
	// Every skipped name really has no FUNC in the reference.
	names := map[string]bool{}
	for id := btf.TypeID(1); id < want.NextID(); id++ {
		if tt := want.Type(id); tt.Kind() == btf.KindFunc {
			names[tt.Name()] = true
		}
	}
	counts := map[string]int{}
	for _, s := range rep.Skipped {
		counts[s.Reason]++
		if names[s.Name] {
			t.Errorf("%s reported as skipped (%s) but pahole 1.31 encodes it", s.Name, s.Reason)
		}
	}
	var reasons []string
	for k := range counts {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		t.Logf("skipped: %5d %s", counts[k], k)
	}
	validate(t, "vmlinux", got.Marshal(nil))
}
