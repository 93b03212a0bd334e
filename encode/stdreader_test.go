package encode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf/diff"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestReadersAgree encodes every corpus object twice, through the dwarf
// package's reader and through the standard library's debug/dwarf, and
// requires the same types: an independent check of the fast reader on
// everything the encoder reads.
func TestReadersAgree(t *testing.T) {
	for _, src := range testc.CorpusFiles(t) {
		for _, v := range testc.DWARFVariants() {
			if !testc.Have(v.CC) {
				testc.Require(t, string(v.CC))
			}
			name := strings.TrimSuffix(filepath.Base(src), ".c") + "/" + v.Name()
			t.Run(name, func(t *testing.T) {
				obj := testc.Compile(t, src, v)
				fast, err := EncodeFile(obj, Options{Features: DefaultFeatures, Jobs: 2})
				if err != nil {
					t.Fatal(err)
				}
				std, err := encodeStd(obj, Options{Features: DefaultFeatures, Jobs: 2})
				if err != nil {
					t.Fatal(err)
				}
				if r := diff.Compare(withoutFuncs(fast), withoutFuncs(std), diff.Options{}); !r.Equal() {
					t.Errorf("dwarf reader (A) and debug/dwarf (B) disagree:\n%s", diffText(r))
				}
			})
		}
	}
}
