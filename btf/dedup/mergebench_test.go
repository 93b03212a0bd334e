package dedup

import (
	"encoding/binary"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// BenchmarkMergeDedupEmbedded2x: MergeDedup of two copies of the vmlinux
// BTF (what `btfkit dedup` does for 2x embedded.btf), and the output
// marshalled.
func BenchmarkMergeDedupEmbedded2x(b *testing.B) {
	_, data := embedded(b)
	specs := []*btf.Spec{mustParse(b, data, nil), mustParse(b, data, nil)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, _, err := MergeDedup(specs, Options{KeepDuplicateVars: true})
		if err != nil {
			b.Fatal(err)
		}
		_ = out.Marshal(binary.LittleEndian)
	}
}
