package encode

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestReproducibleUnits links every corpus object (gcc and clang) into one
// relocatable object of many units and encodes it with -j1, -j2, -j8 and
// -j32, five times each: the output must be byte-identical. It is the
// parallel path at a size the race detector can run.
func TestReproducibleUnits(t *testing.T) {
	testc.Require(t, "ld")
	var objs []string
	for _, src := range testc.CorpusFiles(t) {
		for _, v := range testc.DWARFVariants() {
			if v.Flags[0] == "-gdwarf-5" && testc.Have(v.CC) {
				objs = append(objs, testc.Compile(t, src, v))
			}
		}
	}
	all := filepath.Join(t.TempDir(), "all.o")
	testc.Run(t, "ld", append([]string{"-r", "-z", "muldefs", "-o", all}, objs...)...)
	var first []byte
	for _, j := range []int{1, 2, 8, 32} {
		for i := 0; i < 5; i++ {
			s, err := EncodeFile(all, Options{Features: DefaultFeatures, Jobs: j})
			if err != nil {
				t.Fatal(err)
			}
			data := s.Marshal(nil)
			if first == nil {
				first = data
				validate(t, "linked corpus", data)
				continue
			}
			if !bytes.Equal(first, data) {
				t.Fatalf("-j%d run %d: output differs from -j1 run 1", j, i+1)
			}
		}
	}
	t.Logf("%d objects, 20 encodes, byte-identical", len(objs))
}
