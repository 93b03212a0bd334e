package encode

import (
	"testing"

	"github.com/btfkit/btfkit/internal/testenv"
)

func BenchmarkFragmentsVmlinux(b *testing.B) {
	obj, _ := testenv.KernelInputs(b)
	for i := 0; i < b.N; i++ {
		if _, err := Fragments(obj, Options{Features: DefaultFeatures, Jobs: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeVmlinux(b *testing.B) {
	obj, _ := testenv.KernelInputs(b)
	for i := 0; i < b.N; i++ {
		if _, err := EncodeFile(obj, Options{Features: DefaultFeatures, Jobs: 2}); err != nil {
			b.Fatal(err)
		}
	}
}
