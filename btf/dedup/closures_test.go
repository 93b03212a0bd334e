package dedup

import (
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
)

// closureUnits cuts the vmlinux BTF into n standalone units, each the
// closure of a few named types (as a unit including their headers would
// carry them), overlapping heavily, in a different type order each.
func closureUnits(t testing.TB, n int) (*btf.Spec, []unit) {
	_, data := embedded(t)
	base := mustParse(t, data, nil)
	var roots []btf.TypeID
	for id := base.FirstID(); id < base.NextID(); id++ {
		if k := base.Type(id).Kind(); (k == btf.KindStruct || k == btf.KindTypedef || k == btf.KindFunc) && base.Type(id).Name() != "" {
			roots = append(roots, id)
		}
	}
	var units []unit
	for i := 0; i < n; i++ {
		var rs []btf.TypeID
		for j := 0; j < 3; j++ {
			rs = append(rs, roots[(i*7919+j*104729)%len(roots)])
		}
		if i%2 == 1 { // another visiting order
			rs[0], rs[2] = rs[2], rs[0]
		}
		u, _ := closure(base, rs...)
		units = append(units, u)
	}
	return base, units
}

// TestClosuresVsLibbpf: 60 (-short: 12) overlapping units cut from real kernel types
// (cycles, FWDs, typedef chains, anonymous members) dedup byte-identically
// to libbpf, to no more types than the union of their closures.
func TestClosuresVsLibbpf(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 12 // the race detector's run: the same code on fewer units
	}
	_, units := closureUnits(t, n)
	total := 0
	for _, u := range units {
		total += u.NumTypes()
	}
	start := time.Now()
	out := checkAgainstLibbpf(t, nil, "", units...)
	t.Logf("%d units, %d types in, %d out (ours and libbpf), %v", len(units), total, out.NumTypes(), time.Since(start))
}

// BenchmarkDedupClosures: 300 overlapping units from the vmlinux BTF.
func BenchmarkDedupClosures(b *testing.B) {
	_, units := closureUnits(b, 300)
	specs := make([]*btf.Spec, len(units))
	total := 0
	for i, u := range units {
		specs[i] = u.Spec
		total += u.NumTypes()
	}
	b.ResetTimer()
	var out *btf.Spec
	for i := 0; i < b.N; i++ {
		m, err := Merge(specs...)
		if err != nil {
			b.Fatal(err)
		}
		if out, _, err = Dedup(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total), "types-in")
	b.ReportMetric(float64(out.NumTypes()), "types-out")
}
