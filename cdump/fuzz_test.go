package cdump

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// FuzzBytes: any BTF the parser accepts prints without a panic or a hang
// (malformed reference cycles included).
func FuzzBytes(f *testing.F) {
	for _, name := range []string{"types.c", "funcs.c"} {
		src := filepath.Join(testc.CorpusDir(), name)
		if !testc.Have(testc.GCC) {
			break
		}
		o := testc.Compile(f, src, testc.Variant{CC: testc.GCC, Flags: []string{"-gbtf"}})
		data, _, err := btf.ReadBTFBytes(o)
		if err == nil {
			f.Add(data)
		}
	}
	if len(os.Getenv("BTFKIT_FUZZ_SEED")) > 0 {
		if data, err := os.ReadFile(os.Getenv("BTFKIT_FUZZ_SEED")); err == nil {
			f.Add(data)
		}
	}
	maxOutputBase = 1 << 20 // exponential inlining fails fast
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := btf.Parse(data, nil)
		if err != nil {
			return
		}
		Bytes(s, Options{})
		Bytes(s, Options{FixLayout: true, PointerSize: 4})
	})
}
