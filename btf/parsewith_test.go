package btf

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// requireParseWithAsParse: ParseWith, reusing prev's tables and sharing
// the strings, returns what Parse returns for data: the same error, or a
// Spec that writes the same bytes. It returns the Spec to reuse next.
func requireParseWithAsParse(t *testing.T, data []byte, prev *Spec) *Spec {
	t.Helper()
	want, werr := Parse(data, nil)
	got, gerr := ParseWith(data, nil, ParseOptions{Reuse: prev, ShareStrings: true})
	switch {
	case (werr == nil) != (gerr == nil):
		t.Fatalf("Parse: %v; ParseWith: %v", werr, gerr)
	case werr != nil:
		if werr.Error() != gerr.Error() {
			t.Fatalf("Parse: %v; ParseWith: %v", werr, gerr)
		}
		return nil
	}
	if !bytes.Equal(got.Marshal(nil), want.Marshal(nil)) {
		t.Fatalf("ParseWith's Spec (%d types) writes other bytes than Parse's (%d types)", got.NumTypes(), want.NumTypes())
	}
	return got
}

// TestParseWith: the every-kind BTF, in both byte orders, and every
// truncation and many corruptions of it, parsed one after the other with
// the tables reused: the archive route's reading of its members.
func TestParseWith(t *testing.T) {
	var prev *Spec
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		good := checkSpec().Marshal(bo)
		prev = requireParseWithAsParse(t, good, prev)
		for n := 0; n < len(good); n++ {
			if p := requireParseWithAsParse(t, good[:n], prev); p != nil {
				prev = p
			}
			bad := append([]byte(nil), good...)
			bad[n] ^= 0xa5
			if p := requireParseWithAsParse(t, bad, prev); p != nil {
				prev = p
			}
			// The good one again, into tables a corrupt one left.
			prev = requireParseWithAsParse(t, good, prev)
		}
	}
}
