package encode

import (
	"os"
	"strconv"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
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
		if _, err := EncodeFile(obj, Options{Features: DefaultFeatures, Jobs: benchJobs()}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchJobs is $BTFKIT_BENCH_JOBS, 2 when unset.
func benchJobs() int {
	if n, err := strconv.Atoi(os.Getenv("BTFKIT_BENCH_JOBS")); err == nil && n > 0 {
		return n
	}
	return 2
}
