package pretty_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/pretty"
)

// loopSpec is malformed BTF a parser may let through: a struct that
// contains itself, a typedef of itself, an array of a million structs.
func loopSpec() *btf.Spec {
	s := btf.NewSpec()
	s.Add("int", btf.KindInt, 0, false, 4, btf.IntSigned<<24|32)                                // 1
	s.Add("loop", btf.KindStruct, 1, false, 4, s.AddString("self"), 2, 0)                       // 2
	s.Add("t1", btf.KindTypedef, 0, false, 3)                                                   // 3
	s.Add("uses", btf.KindStruct, 2, false, 8, s.AddString("a"), 3, 0, s.AddString("b"), 1, 32) // 4
	s.Add("", btf.KindArray, 0, false, 0, 4, 1, 1<<20)                                          // 5
	s.Add("huge", btf.KindStruct, 1, false, 8<<20, s.AddString("many"), 5, 0)                   // 6
	return s
}

// TestLoopsInBTF: types that loop end in an error or in output, never in
// a hang or a crash.
func TestLoopsInBTF(t *testing.T) {
	s := loopSpec()
	data := bytes.Repeat([]byte{1, 2, 3, 4}, 8)
	text, _, err := decode(t, s, pretty.Options{Classes: []pretty.Class{{Name: "loop"}}}, data)
	if err == nil || !strings.Contains(err.Error(), "nested more than 64 deep") {
		t.Errorf("a struct in itself: %v\n%s", err, text)
	}
	if _, _, err := decode(t, s, pretty.Options{Classes: []pretty.Class{{Name: "uses"}}}, data); err != nil {
		t.Errorf("a typedef of itself: %v", err)
	}
	_, _, err = decode(t, s, pretty.Options{Classes: []pretty.Class{{Name: "huge"}}, MaxRecordSize: 1 << 20}, data)
	if err == nil || !strings.Contains(err.Error(), "more than the record size limit") {
		t.Errorf("an 8 MiB struct with a 1 MiB limit: %v", err)
	}
}

// FuzzDecode feeds arbitrary bytes to the records tests' decoders: no
// input may panic or hang them.
func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "records.data"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:47])
	f.Add(seed[48:])
	f.Add([]byte{1, 0, 0, 0, 1, 0, 200, 0})
	spec, _ := records(f)
	withRange := typed
	withRange.Range = "recs"
	withRange.Args = append(append([]pretty.Arg{}, typed.Args...), pretty.Arg{Key: "range", Value: "recs"})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []pretty.Options{
			{Classes: []pretty.Class{typed}},
			{Classes: []pretty.Class{withRange, {Name: "trailer", Range: "tail", Args: []pretty.Arg{{Key: "range", Value: "tail"}}}}, Header: "file_hdr"},
			{Classes: []pretty.Class{{Name: "wide_hdr", Sizeof: "size", Args: []pretty.Arg{{Key: "sizeof", Value: "size"}}}}, MaxRecordSize: 1 << 16},
		} {
			decode(t, spec, opts, data)
		}
	})
}
