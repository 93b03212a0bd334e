package pretty_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/btfkit/btfkit/pretty"
)

// BenchmarkText prints the records of testdata/records.data, repeated, as
// pahole's text (the work `scripts/bench pretty` measures against pahole).
func BenchmarkText(b *testing.B) { benchWriter(b, false) }

// BenchmarkJSON prints the same records as JSON lines.
func BenchmarkJSON(b *testing.B) { benchWriter(b, true) }

func benchWriter(b *testing.B, json bool) {
	spec, _ := records(b)
	data, err := os.ReadFile(filepath.Join("testdata", "records.data"))
	if err != nil {
		b.Fatal(err)
	}
	off, size := binary.LittleEndian.Uint64(data[8:]), binary.LittleEndian.Uint64(data[16:]) // file_hdr.recs
	recs := data[off : off+size]
	const n = 2000
	b.SetBytes(int64(n * len(recs)))
	for b.Loop() {
		d, err := pretty.NewDecoder(spec, pretty.Options{Classes: []pretty.Class{typed}})
		if err != nil {
			b.Fatal(err)
		}
		var write func(*pretty.Record) error
		if json {
			write = pretty.NewJSONWriter(discard{}, d).Write
		} else {
			write = pretty.NewTextWriter(discard{}, d, pretty.TextOptions{}).Write
		}
		if err := d.Decode(&repeater{rec: recs, n: n}, write); err != nil && err != errEOF {
			b.Fatal(err)
		}
	}
}
