package cdump

import (
	"bytes"
	"testing"

	"github.com/btfkit/btfkit/btf"
)

// FuzzWriteRaw: whatever Parse accepts, as complete or as split BTF,
// WriteRaw lists without panicking (names out of range, dangling type IDs
// and unknown encodings included), and AppendRaw of every type in turn
// gives the same bytes.
func FuzzWriteRaw(f *testing.F) {
	base := everyKindSpec()
	f.Add(base.Marshal(nil))
	split := btf.NewSplitSpec(base)
	split.Add("", btf.KindDatasec, 1, false, 4, 25, 0, 4)
	f.Add(split.Marshal(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := btf.Parse(data, nil)
		if err != nil {
			if s, err = btf.Parse(data, base); err != nil {
				return
			}
		}
		var buf bytes.Buffer
		if err := WriteRaw(&buf, s); err != nil {
			t.Fatal(err)
		}
		var each []byte
		for id := s.FirstID(); id < s.NextID(); id++ {
			each = AppendRaw(each, s, id)
		}
		if !bytes.Equal(each, buf.Bytes()) {
			t.Fatalf("AppendRaw of every type differs from WriteRaw at %s", firstDiff(each, buf.Bytes()))
		}
	})
}
