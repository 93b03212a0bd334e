package pretty_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/pretty"
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestBadData runs the decoder over bad data, each case within a deadline
// (decode): pahole's behaviour where it copes (a record of size zero, a
// type value no enumerator names, an enumerator with no struct), a
// *DataError naming the record's offset where it does not (a record past
// the end of the data, a truncated record, a header or a seek past the
// end, a seek before the start or, in a pipe, back, a size beyond the
// limit), and a clear error for what the options name that the types do
// not have.
func TestBadData(t *testing.T) {
	spec, l := records(t)
	point := rec(l, "rec_point", 0, 1) // 32 bytes
	one := []pretty.Class{typed}
	hdr := l.New("file_hdr", 0).Set("recs.offset", 48).Set("recs.size", 32).B
	farHdr := l.New("file_hdr", 0).Set("recs.offset", 100).Set("recs.size", 32).B
	wide := func(size uint64) []byte { return l.New("wide_hdr", 0).Set("type", 1).Set("size", size).B }
	wideClass := []pretty.Class{{Name: "wide_hdr", Sizeof: "size", Args: []pretty.Arg{{Key: "sizeof", Value: "size"}}}}
	cases := []struct {
		name    string
		opts    pretty.Options
		data    []byte
		err     string // "" for success
		off     int64  // the *DataError's offset
		records int    // records printed before the end or the error
		has     string // in the text output
		pipe    bool   // the data cannot seek
	}{
		{name: "size zero", opts: pretty.Options{Classes: one}, data: cat(point, rec(l, "rec_hdr", 0, 2, 0), point), records: 3},
		{name: "size smaller than the header", opts: pretty.Options{Classes: one}, data: cat(rec(l, "rec_hdr", 0, 1, 2), point), records: 2},
		{name: "no enumerator", opts: pretty.Options{Classes: one}, data: cat(rec(l, "rec_hdr", 4, 77), point), records: 2, has: ".kind = 77,"},
		{name: "no struct for the enumerator", opts: pretty.Options{Classes: one}, data: rec(l, "rec_hdr", 4, 6), records: 1, has: ".kind = REC_NONE,"},
		{name: "past the end", opts: pretty.Options{Classes: one}, data: cat(point, rec(l, "rec_hdr", 10, 1, 100)), err: "runs past the end of the data", off: 32, records: 1},
		{name: "truncated", opts: pretty.Options{Classes: one}, data: cat(point, point[:2]), err: "truncated record", off: 32, records: 1},
		{name: "truncated fixed size", opts: pretty.Options{Classes: []pretty.Class{{Name: "trailer"}}}, data: make([]byte, 20), err: "truncated record", off: 16, records: 2},
		{name: "header too short", opts: pretty.Options{Classes: one, Header: "file_hdr"}, data: hdr[:10], err: "--header (file_hdr) type couldn't be read", off: 0},
		{name: "seek past the end", opts: pretty.Options{Classes: one, SeekBytes: "1000"}, data: point, err: "the data ends", off: 32},
		{name: "seek back", opts: pretty.Options{Classes: one, SeekBytes: "-8"}, data: point, err: "can't go back", off: 0},
		{name: "range past the end", opts: pretty.Options{Classes: one, Header: "file_hdr", Range: "recs"}, data: farHdr, err: "the data ends", off: 48},
		{name: "range at the end", opts: pretty.Options{Classes: one, Header: "file_hdr", Range: "recs"}, data: hdr},
		{name: "seek back in a pipe", opts: pretty.Options{Classes: one, Header: "file_hdr", SeekBytes: "8"}, data: cat(hdr, point), err: "can't go back", off: 48, pipe: true},
		// pahole 1.32 goes back in a file (fseek), not in a pipe.
		{name: "range twice", opts: pretty.Options{Classes: []pretty.Class{typed, typed}, Header: "file_hdr", Range: "recs"}, data: cat(hdr, point), records: 2},
		{name: "range twice in a pipe", opts: pretty.Options{Classes: []pretty.Class{typed, typed}, Header: "file_hdr", Range: "recs"}, data: cat(hdr, point), err: "can't go back", off: 80, records: 1, pipe: true},
		{name: "header member not found", opts: pretty.Options{Classes: one, Header: "file_hdr", SeekBytes: "$header.nosuch"}, data: hdr, err: "couldn't read the 'nosuch' member of 'file_hdr'"},
		{name: "header member not an integer", opts: pretty.Options{Classes: one, Header: "file_hdr", Range: "magic"}, data: hdr, err: "couldn't read the 'magic.offset' member"},
		{name: "seek inside the header", opts: pretty.Options{Classes: one, Header: "file_hdr", SeekBytes: "$header.nr"}, data: hdr, err: "less than the header type size"},
		{name: "size beyond the limit", opts: pretty.Options{Classes: wideClass}, data: wide(0xffffffff), err: "more than the limit", off: 0},
		{name: "size beyond the data", opts: pretty.Options{Classes: wideClass, MaxRecordSize: 1 << 30}, data: cat(wide(16), wide(200<<20)), err: "runs past the end", off: 16, records: 1},
	}
	for _, c := range cases {
		text, json, err := decodeFrom(t, spec, c.opts, c.data, !c.pipe)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		}
		var de *pretty.DataError
		if c.off != 0 || strings.Contains(c.name, "header too") {
			if !errors.As(err, &de) || de.Offset != c.off {
				t.Errorf("%s: %v: want a *DataError at offset %#x", c.name, err, c.off)
			}
		}
		if n := strings.Count(text, "\n},\n"); n != c.records {
			t.Errorf("%s: %d records printed, want %d:\n%s", c.name, n, c.records, text)
		}
		if n := strings.Count(json, "\n"); n != c.records {
			t.Errorf("%s: %d JSON records, want %d:\n%s", c.name, n, c.records, json)
		}
		if c.has != "" && !strings.Contains(text, c.has) {
			t.Errorf("%s: no %q in\n%s", c.name, c.has, text)
		}
	}
}

// TestBadOptions: what the options name must exist, with the errors
// pahole gives (in its words where it has them).
func TestBadOptions(t *testing.T) {
	spec, _ := records(t)
	cls := func(expr string) []pretty.Class {
		c, err := pretty.ParseClasses(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return c
	}
	for _, c := range []struct {
		opts pretty.Options
		err  string
	}{
		{pretty.Options{Classes: cls("nosuch")}, "type 'nosuch' not found"},
		{pretty.Options{Classes: cls("rec_hdr"), Header: "nosuch"}, "--header type 'nosuch' not found"},
		{pretty.Options{Classes: cls("rec_hdr"), Header: "rec_kind"}, "is a enum, not a struct or union"},
		{pretty.Options{Classes: cls("rec_hdr(sizeof=nosuch)")}, "the sizeof member 'nosuch' wasn't found in the 'rec_hdr' type"},
		{pretty.Options{Classes: cls("rec_hdr(type=nosuch)")}, "the type member 'nosuch' wasn't found in the 'rec_hdr' type"},
		{pretty.Options{Classes: cls("rec_hdr(type=kind,type_enum=rec_kind+nosuch)")}, "enum 'nosuch' not found"},
		{pretty.Options{Classes: cls("rec_hdr(filter=kind==REC_POINT)")}, "no type_enum"},
		{pretty.Options{Classes: cls("rec_hdr(type=kind,type_enum=rec_kind,filter=kind==NOSUCH)")}, "couldn't resolve 'NOSUCH'"},
		{pretty.Options{Classes: cls("rec_hdr(type=kind,type_enum=rec_kind,filter=len==POINT)")}, "not the type= member"},
		{pretty.Options{Classes: cls("rec_hdr(filter=nosuch==1)")}, "the 'nosuch' member wasn't found in 'rec_hdr'"},
		{pretty.Options{Classes: cls("inner_t(sizeof=a)")}, "arguments are only supported with structs"},
		{pretty.Options{Classes: cls("rec_hdr(range=recs)")}, "range (recs) requires --header"},
		{pretty.Options{Classes: cls("rec_hdr"), SeekBytes: "$header.recs.offset"}, "makes reference to --header but it wasn't specified"},
		{pretty.Options{Classes: cls("rec_hdr"), SizeBytes: "12x"}, "--size_bytes: '12x' is not a number"},
		{pretty.Options{}, "no type to decode"},
	} {
		_, err := pretty.NewDecoder(spec, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want one saying %q", c.opts, err, c.err)
		}
	}
}

// zeros is a reader of n records of a fixed pattern, made as it is read.
type repeater struct {
	rec  []byte
	n, i int
	off  int
}

func (r *repeater) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) && r.i < r.n {
		c := copy(p[w:], r.rec[r.off:])
		w += c
		r.off += c
		if r.off == len(r.rec) {
			r.off = 0
			r.i++
		}
	}
	if w == 0 {
		return 0, errEOF
	}
	return w, nil
}

var errEOF = errors.New("EOF")

// TestMemoryDoesNotGrow decodes streams of 1,000 and 100,000 records
// (generated as they are read) with both writers: what the decoder
// allocates does not depend on how many records it reads.
func TestMemoryDoesNotGrow(t *testing.T) {
	spec, l := records(t)
	recs := cat(rec(l, "rec_point", 0, 1), rec(l, "rec_name", 20, 2), rec(l, "rec_mixed", 40, 5), rec(l, "rec_hdr", 4, 6))
	alloc := func(n int, json bool) uint64 {
		d, err := pretty.NewDecoder(spec, pretty.Options{Classes: []pretty.Class{typed}})
		if err != nil {
			t.Fatal(err)
		}
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		var write func(*pretty.Record) error
		if json {
			write = pretty.NewJSONWriter(discard{}, d).Write
		} else {
			write = pretty.NewTextWriter(discard{}, d, pretty.TextOptions{}).Write
		}
		if err := d.Decode(&repeater{rec: recs, n: n}, write); err != nil && err != errEOF {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		return ms.TotalAlloc - before
	}
	for _, json := range []bool{false, true} {
		small, large := alloc(1000, json), alloc(100000, json)
		t.Logf("json=%v: %d bytes allocated for 1,000 records, %d for 100,000 (%d MB of data)", json, small, large, 100000*len(recs)>>20)
		if large > small+64<<10 {
			t.Errorf("json=%v: decoding 100,000 records allocates %d bytes, 1,000 records %d: memory grows with the input", json, large, small)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
