package dedup

import (
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// BenchmarkDedupEmbedded4x: merge and dedup four copies of the vmlinux BTF
// (381,060 types in).
func BenchmarkDedupEmbedded4x(b *testing.B) {
	_, data := embedded(b)
	var specs []*btf.Spec
	for i := 0; i < 4; i++ {
		specs = append(specs, mustParse(b, data, nil))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := Merge(specs...)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := Dedup(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDedupOnlyClosures: Dedup alone over one merged Spec of 300
// overlapping units (about 2M types), as the encoder calls it.
func BenchmarkDedupOnlyClosures(b *testing.B) {
	_, units := closureUnits(b, 300)
	specs := make([]*btf.Spec, len(units))
	for i, u := range units {
		specs[i] = u.Spec
	}
	m, err := Merge(specs...)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Dedup(m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.NumTypes()), "types-in")
}
