package pretty_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/prettytest"
	"github.com/btfkit/btfkit/pretty"
)

// TestJSONRoundTripRecords prints testdata/records.data (records of every
// shape: bitfields signed and enum-typed, unions named and anonymous,
// floats, a 128-bit integer, strings with bytes after their NUL and not
// UTF-8, flexible arrays, a record shorter than its struct, kinds with no
// enumerator or no struct) as JSON and rebuilds every record's bytes from
// its line.
func TestJSONRoundTripRecords(t *testing.T) {
	spec, _ := records(t)
	data, err := os.ReadFile(filepath.Join("testdata", "records.data"))
	if err != nil {
		t.Fatal(err)
	}
	withRange := typed
	withRange.Range = "recs"
	withRange.Args = append(append([]pretty.Arg{}, typed.Args...), pretty.Arg{Key: "range", Value: "recs"})
	opts := pretty.Options{
		Header: "file_hdr", HeaderRecord: true,
		Classes: []pretty.Class{withRange, {Name: "trailer", Range: "tail", Args: []pretty.Arg{{Key: "range", Value: "tail"}}}},
	}
	_, out, err := decode(t, spec, opts, data)
	if err != nil {
		t.Fatal(err)
	}
	te := &prettytest.TypeEnum{Struct: "rec_hdr", Member: "kind", Enums: []string{"rec_kind", "rec_kind_ext"}}
	types := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		if !json.Valid([]byte(line)) {
			t.Fatalf("line %d is not JSON: %s", i, line)
		}
		rec, b, err := prettytest.RecordBytes(spec, []byte(line), te)
		if err != nil {
			t.Fatalf("line %d: %v\n%s", i, err, line)
		}
		types[rec.Type]++
		if want := data[rec.Offset : rec.Offset+int64(rec.Size)]; !bytes.Equal(b, want) {
			t.Errorf("%s at %d: rebuilt from its JSON\n%x\nit is\n%x\n%s", rec.Type, rec.Offset, b, want, line)
		}
	}
	for _, ty := range []string{"file_hdr", "rec_point", "rec_name", "rec_blob", "rec_bits", "rec_mixed", "rec_ext_floats", "rec_ext_deep", "rec_hdr", "trailer"} {
		if types[ty] == 0 {
			t.Errorf("no %s record: %v", ty, types)
		}
	}
	if len(lines) != 1+13+3 {
		t.Errorf("%d lines, want the header, 13 records and 3 trailers", len(lines))
	}
}

// TestJSONValues checks what the JSON says of a few records against what
// they were built with.
func TestJSONValues(t *testing.T) {
	spec, l := records(t)
	bits := l.New("rec_bits", 0).Set("d", uint64(1<<7-3)).Set("e", 2).Set("h", 0xf).Set("i", 1).Set("f", 1<<32+1)
	bits.Set("hdr.kind", 4).Set("hdr.len", uint64(len(bits.B)))
	name := rec(l, "rec_name", 6, 2)
	copy(name[4:], "h\xffi\x00z")
	fl := l.New("rec_ext_floats", 0).Set("f", 0x7fc00000).Set("d", 0x4004000000000000)
	fl.Set("hdr.kind", 100).Set("hdr.len", uint64(len(fl.B)))
	_, out, err := decode(t, spec, pretty.Options{Classes: []pretty.Class{typed}}, cat(bits.B, name, fl.B))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"hdr":{"kind":"REC_BITS","len":24}`,
		`"d":-3,"e":"GREEN"`, // signed bitfield, enum bitfield
		`"f":4294967297`,     // a 33-bit field
		`"h":-1,"i":true`,    // signed char:4, _Bool:1
		`"name":[104,255,105]`, "extra",
		`"f":"0x7fc00000","d":2.5`, // NaN as its bits, a double
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}

// TestJSONExactIntegers: integers past 2^53-1, which JSON readers that
// hold numbers as doubles (jq 1.6, JavaScript's JSON.parse) would round,
// are written as strings of their decimal digits; every number left as a
// JSON number survives such a reader exactly, and the record is rebuilt
// from its JSON.
func TestJSONExactIntegers(t *testing.T) {
	spec, l := records(t)
	for _, z := range []uint64{1<<53 - 1, 1 << 53, 1<<64 - 1, 1 << 63, uint64(1<<63 + 12345)} {
		p := l.New("rec_point", 0).Set("x", 7).Set("z", z)
		p.Set("hdr.kind", 1).Set("hdr.len", uint64(len(p.B)))
		_, out, err := decode(t, spec, pretty.Options{Classes: []pretty.Class{typed}}, p.B)
		if err != nil {
			t.Fatal(err)
		}
		line := strings.TrimSuffix(out, "\n")
		want := fmt.Sprintf(`"z":%d`, int64(z))
		if int64(z) > 1<<53-1 || int64(z) < -(1<<53-1) {
			want = fmt.Sprintf(`"z":"%d"`, int64(z))
		}
		if !strings.Contains(line, want) {
			t.Errorf("z = %d: no %s in\n%s", int64(z), want, line)
		}
		// A reader that holds numbers as float64, as jq 1.6 does.
		var doc any
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case float64:
				if x > 1<<53-1 || x < -(1<<53-1) {
					t.Errorf("a JSON number a double cannot hold exactly: %v in\n%s", x, line)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(doc)
		te := &prettytest.TypeEnum{Struct: "rec_hdr", Member: "kind", Enums: []string{"rec_kind", "rec_kind_ext"}}
		_, b, err := prettytest.RecordBytes(spec, []byte(line), te)
		if err != nil {
			t.Fatalf("%v\n%s", err, line)
		}
		if !bytes.Equal(b, p.B) {
			t.Errorf("rebuilt from its JSON\n%x\nit is\n%x", b, p.B)
		}
	}
}
