package btf

import (
	"bytes"
	"testing"
)

// FuzzDumpRaw: whatever Parse accepts, as complete or as split BTF, DumpRaw
// lists without panicking (names out of range, dangling type IDs and
// unknown encodings included), and AppendRaw of every type in turn gives
// the same bytes.
func FuzzDumpRaw(f *testing.F) {
	base := everyKindSpec()
	f.Add(base.Marshal(nil))
	split := NewSplitSpec(base)
	split.Add("", KindDatasec, 1, false, 4, 25, 0, 4)
	f.Add(split.Marshal(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, nil)
		if err != nil {
			if s, err = Parse(data, base); err != nil {
				return
			}
		}
		var buf bytes.Buffer
		if err := DumpRaw(&buf, s); err != nil {
			t.Fatal(err)
		}
		var each []byte
		for id := s.FirstID(); id < s.NextID(); id++ {
			each = s.AppendRaw(each, id)
		}
		if !bytes.Equal(each, buf.Bytes()) {
			t.Fatalf("AppendRaw of every type differs from DumpRaw at %s", firstDiff(each, buf.Bytes()))
		}
	})
}
