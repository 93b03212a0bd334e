package encode

import (
	"testing"
)

// BenchmarkBatchModules encodes every module of the Debian package
// against the vmlinux's .BTF in one batch, as `btfkit encode --base
// --out-dir` does (without writing the outputs): the per-module cost of a
// batch, for profiling (-cpuprofile). -short takes 100 modules.
func BenchmarkBatchModules(b *testing.B) {
	n := 1 << 30
	if testing.Short() {
		n = 100
	}
	mods := splitSubset(b, n)
	base, err := LoadBase(splitBaseBTF)
	if err != nil {
		splitSkip(b, "%v", err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		failed := EncodeBatch(mods, base, BatchOptions{Options: Options{Features: DefaultFeatures}, Jobs: 1}, func(r BatchResult) error {
			if r.Err != nil {
				b.Error(r.Err)
			}
			return nil
		})
		if failed > 0 {
			b.Fatalf("%d modules failed", failed)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(mods)), "ms/module")
}
