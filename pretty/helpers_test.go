package pretty_test

import (
	"bytes"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/prettytest"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/pretty"
)

var recordsSpec struct {
	sync.Mutex
	spec *btf.Spec
}

// records returns the types of testdata/records.c, compiled with gcc -g
// and encoded from its DWARF, and a layout to build records with.
func records(t testing.TB) (*btf.Spec, *prettytest.Layout) {
	t.Helper()
	r := &recordsSpec
	r.Lock()
	defer r.Unlock()
	if r.spec == nil {
		src, _ := filepath.Abs(filepath.Join("testdata", "records.c"))
		obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
		s, err := encode.EncodeFile(obj, encode.Options{Features: encode.DefaultFeatures})
		if err != nil {
			t.Fatal(err)
		}
		r.spec = s
	}
	return r.spec, &prettytest.Layout{Spec: r.spec}
}

// typed is the -C the record tests read rec_hdr streams with.
var typed = pretty.Class{Name: "rec_hdr", Sizeof: "len", TypeMember: "kind", TypeEnum: []string{"rec_kind", "rec_kind_ext"},
	Args: []pretty.Arg{{Key: "sizeof", Value: "len"}, {Key: "type", Value: "kind"}, {Key: "type_enum", Value: "rec_kind+rec_kind_ext"}}}

// rec builds a rec_hdr-tagged record of struct name with extra bytes,
// its kind and length set (length: the record's size unless given).
func rec(l *prettytest.Layout, name string, extra int, kind uint64, length ...uint64) []byte {
	r := l.New(name, extra)
	prefix := "hdr."
	if name == "rec_hdr" {
		prefix = ""
	}
	n := uint64(len(r.B))
	if len(length) > 0 {
		n = length[0]
	}
	return r.Set(prefix+"kind", kind).Set(prefix+"len", n).B
}

// decode runs a decoder over data with both writers, within a deadline:
// a decoder that hangs fails the test instead of stalling it.
func decode(t *testing.T, spec *btf.Spec, opts pretty.Options, data []byte) (text, json string, err error) {
	t.Helper()
	return decodeFrom(t, spec, opts, data, true)
}

// onlyReader hides a reader's other methods (Seek): data read as from a
// pipe.
type onlyReader struct{ io.Reader }

// decodeFrom is decode from data that can seek (a file) or, with seekable
// false, cannot (a pipe).
func decodeFrom(t *testing.T, spec *btf.Spec, opts pretty.Options, data []byte, seekable bool) (text, json string, err error) {
	t.Helper()
	reader := func() io.Reader {
		if seekable {
			return bytes.NewReader(data)
		}
		return onlyReader{bytes.NewReader(data)}
	}
	type result struct {
		text, json string
		err        error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		d, err := pretty.NewDecoder(spec, opts)
		if err != nil {
			r.err = err
			done <- r
			return
		}
		var tb, jb bytes.Buffer
		tw := pretty.NewTextWriter(&tb, d, pretty.TextOptions{})
		r.err = d.Decode(reader(), tw.Write)
		tw.Flush()
		d2, _ := pretty.NewDecoder(spec, opts)
		jw := pretty.NewJSONWriter(&jb, d2)
		jerr := d2.Decode(reader(), jw.Write)
		jw.Flush()
		if r.err == nil {
			r.err = jerr
		}
		r.text, r.json = tb.String(), jb.String()
		done <- r
	}()
	select {
	case r := <-done:
		return r.text, r.json, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("decoding %d bytes did not finish in 30 s", len(data))
	}
	return "", "", nil
}
