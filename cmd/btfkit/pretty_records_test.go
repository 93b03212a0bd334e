package main

// `btfkit pahole --prettify` against pahole on synthetic record streams:
// the types of pretty/testdata/records.c (compiled with gcc -g at test
// time), records of every shape built from their layouts, and pahole's
// options in the combinations its man page shows. The oracle is the pahole
// on PATH (1.32), run at test time on the same command line.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/encode"
	"github.com/btfkit/btfkit/internal/testsupport/prettytest"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// prettyFixture compiles a C fixture of pretty/testdata with gcc -g and
// returns the object and its types (encoded from its DWARF).
func prettyFixture(t *testing.T, name string) (string, *btf.Spec) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "pretty", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	obj := testc.Compile(t, src, testc.Variant{CC: testc.GCC, Flags: []string{"-g"}})
	spec, err := encode.EncodeFile(obj, encode.Options{Features: encode.DefaultFeatures})
	if err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	return obj, spec
}

// recordsStream is a file of records.c's types: a file_hdr, junk, the
// records (rec_hdr with a kind and a length), junk, trailers, junk.
type recordsStream struct {
	data                []byte
	recsOff, recsSize   int
	tailOff, tailSize   int
	nrecords, ntrailers int
}

func buildRecordsStream(spec *btf.Spec) recordsStream {
	l := &prettytest.Layout{Spec: spec}
	var recs [][]byte
	add := func(r *prettytest.Rec, kind uint64) {
		prefix := "hdr."
		if r.Name() == "rec_hdr" {
			prefix = ""
		}
		r.Set(prefix+"kind", kind).Set(prefix+"len", uint64(len(r.B)))
		recs = append(recs, r.B)
	}
	add(l.New("rec_point", 0).Set("x", uint64(math.MaxUint64-4)).Set("y", 7).Set("z", uint64(1)<<40).Set("w", 300), 1)
	add(l.New("rec_name", 8).Bytes("name", []byte("hello\x00\xffx")), 2)
	add(l.New("rec_blob", 5).Set("n", 5).Bytes("bytes", []byte{1, 2, 0xfe, 4, 5}), 3)
	bits := l.New("rec_bits", 0).Set("a", 5).Set("b", 17).Set("c", 4000).Set("d", uint64(math.MaxUint64-20)).
		Set("e", 4).Set("f", 1<<32|12345).Set("g", 1<<30).Set("h", uint64(math.MaxUint64-1)).Set("i", 1)
	add(bits, 4)
	mixed := l.New("rec_mixed", 12)
	for i := range mixed.B {
		mixed.B[i] = byte(i*37 + 11)
	}
	mixed.Set("ptr", 0xffff888012345678).Set("col", 2).Set("named.i", 0x41424344).Set("x", 0xdeadbeef).
		Bytes("cstr", []byte("ab\x00c")).Bytes("tail", []byte("tail!\x00")).Set("flag", 1)
	add(mixed, 5)
	fl := l.New("rec_ext_floats", 0).Set("f", uint64(math.Float32bits(1.5))).Set("d", math.Float64bits(-2.25)).
		Bytes("big", []byte{0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80})
	for i := 0; i < 16; i++ {
		fl.B[fl.Off("ld")+i] = byte(0x3f + i)
	}
	add(fl, 100)
	add(l.New("rec_ext_deep", 0).Set(strings.Repeat("n.", 18)+"v", 42), 101)
	add(l.New("rec_hdr", 8), 6)      // REC_NONE: no struct of that name
	add(l.New("rec_hdr", 4), 77)     // no enumerator at all
	add(l.New("rec_hdr", 12), 200)   // LAST_SOLO, of the third enum
	add(l.New("rec_hdr", 4), 0xffff) // REC_EXT_ANY = -1
	// A record shorter than its struct, after a longer one: pahole prints
	// the rest of the struct from what its buffer still holds.
	short := l.New("rec_point", 0)
	short.B = short.B[:8]
	short.Set("x", 99)
	add(short, 1)
	add(l.New("rec_name", 4).Bytes("name", []byte("abc\x00")), 2)

	var trailers [][]byte
	for i := 0; i < 3; i++ {
		tr := l.New("trailer", 0).Set("crc", uint64(0xc0ffee00+i)).Bytes("tag", []byte{'T', 'R', 'L', byte('0' + i)})
		trailers = append(trailers, tr.B)
	}

	hdr := l.New("file_hdr", 0)
	var body bytes.Buffer
	body.Write(make([]byte, hdr.Size()))
	body.WriteString("junk-before-records!")
	s := recordsStream{recsOff: body.Len(), nrecords: len(recs), ntrailers: len(trailers)}
	for _, r := range recs {
		body.Write(r)
	}
	s.recsSize = body.Len() - s.recsOff
	body.WriteString("junk")
	s.tailOff = body.Len()
	for _, r := range trailers {
		body.Write(r)
	}
	s.tailSize = body.Len() - s.tailOff
	body.WriteString("junk at the end of the file")
	hdr.Bytes("magic", []byte("RECFILE\x00")).Set("recs.offset", uint64(s.recsOff)).Set("recs.size", uint64(s.recsSize)).
		Set("tail.offset", uint64(s.tailOff)).Set("tail.size", uint64(s.tailSize)).Set("nr", uint64(len(recs)))
	s.data = body.Bytes()
	copy(s.data, hdr.B)
	return s
}

// prettyRecordsData is the committed copy of the stream (a check that the
// stream the test builds does not change unnoticed).
var prettyRecordsData = filepath.Join("..", "..", "pretty", "testdata", "records.data")

// prettyRecordsFiles compiles records.c and writes its stream, once.
var prettyRecordsFiles struct {
	sync.Mutex
	obj, data string
	spec      *btf.Spec
	stream    recordsStream
}

func prettyRecords(t *testing.T) (obj, data string, spec *btf.Spec, s recordsStream) {
	t.Helper()
	p := &prettyRecordsFiles
	p.Lock()
	defer p.Unlock()
	if p.obj == "" {
		obj, spec := prettyFixture(t, "records.c")
		s := buildRecordsStream(spec)
		if os.Getenv("BTFKIT_UPDATE_TESTDATA") != "" {
			if err := os.WriteFile(prettyRecordsData, s.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if committed, err := os.ReadFile(prettyRecordsData); err != nil || !bytes.Equal(committed, s.data) {
			t.Fatalf("%s is not the stream the test builds from records.c (%v): rerun with BTFKIT_UPDATE_TESTDATA=1", prettyRecordsData, err)
		}
		data := filepath.Join(filepath.Dir(obj), "records.data")
		if err := os.WriteFile(data, s.data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.obj, p.data, p.spec, p.stream = obj, data, spec, s
	}
	return p.obj, p.data, p.spec, p.stream
}

// runPaholeTool runs a pahole binary, stdin from a file when given.
func runPaholeTool(t *testing.T, bin, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return out.String(), errb.String(), 0
}

// runPaholeIn runs btfkit's pahole in this process, stdin from a file
// when given.
func runPaholeIn(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		old := os.Stdin
		os.Stdin = f
		defer func() { os.Stdin = old }()
	}
	return runPahole(t, args...)
}

// requirePahole skips without Debian's pahole (CI installs it).
func requirePahole(t *testing.T) {
	t.Helper()
	testc.Require(t, "pahole")
}

// samePaholeOutput runs one command line with pahole and btfkit and
// requires the same standard output and a successful exit from both.
func samePaholeOutput(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	want, werr, wcode := runPaholeTool(t, "pahole", stdin, args...)
	got, gerr, gcode := runPaholeIn(t, stdin, args...)
	if wcode != 0 || gcode != 0 {
		t.Fatalf("pahole %s: pahole exit %d (%s), btfkit exit %d (%s)", strings.Join(args, " "), wcode, werr, gcode, gerr)
	}
	if got != want {
		t.Errorf("pahole %s: output differs from pahole 1.32's:\n%s", strings.Join(args, " "), firstDiff(got, want))
	}
	return got
}

// runPipe runs pahole (bin) or, with bin "", btfkit's pahole in this
// process with data on standard input through a pipe, which cannot seek.
func runPipe(t *testing.T, bin string, data []byte, args ...string) (string, string, int) {
	t.Helper()
	if bin != "" {
		cmd := exec.Command(bin, args...)
		cmd.Stdin = bytes.NewReader(data) // not a file: exec makes a pipe
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		return out.String(), errb.String(), 0
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data) // a reader that stops early closes r: EPIPE then
		w.Close()
	}()
	defer r.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	return runPahole(t, args...)
}

// firstDiff shows where two outputs first differ, by line.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  btfkit: %s\n  pahole: %s", i+1, gl, wl)
		}
	}
	return "(same lines)"
}

func TestPrettifyRecordsMatchPahole(t *testing.T) {
	requirePahole(t)
	obj, data, _, s := prettyRecords(t)
	typed := "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext)"
	withFilter := func(f string) string {
		return "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext," + f + ")"
	}
	num := strconv.Itoa
	cases := [][]string{
		// The records' range from the header.
		{"--header=file_hdr", "--range=recs", "-C", typed},
		{"--header_type", "file_hdr", "--seek_bytes", "$header.recs.offset", "--size_bytes=$header.recs.size", "-C", typed},
		// Numbers instead, no header.
		{"--seek_bytes=" + num(s.recsOff), "--size_bytes=" + num(s.recsSize), "-C", typed},
		{"--seek_bytes=" + "0x" + strconv.FormatInt(int64(s.recsOff), 16), "--size_bytes=" + num(s.recsSize), "-C", typed},
		// Filters: the enumerator, its name without the common prefix, a
		// number, the bare MEMBER==VALUE form, an enumerator of the second enum.
		{"--header=file_hdr", "--range=recs", "-C", withFilter("filter=kind==REC_NAME")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("filter=kind==NAME")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("filter=kind==3")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("kind==BITS")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("kind==FLOATS")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("kind==REC_EXT_DEEP")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("filter=len==12")},
		// --count and --skip, alone and with a filter.
		{"--header=file_hdr", "--range=recs", "--count=3", "-C", typed},
		{"--header=file_hdr", "--range=recs", "--skip=2", "--count=2", "-C", typed},
		{"--header=file_hdr", "--range=recs", "--skip=1", "-C", withFilter("kind==POINT")},
		// Only the first enum: the second one's records print as rec_hdr.
		{"--header=file_hdr", "--range=recs", "-C", "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind)"},
		// No type: every record as rec_hdr, walked by its length.
		{"--header=file_hdr", "--range=recs", "-C", "rec_hdr(sizeof=len)"},
		{"--header=file_hdr", "--range=recs", "-C", "rec_hdr(sizeof=len,type=kind)"},
		// Fixed-size records: the trailers, in the tail range.
		{"--header=file_hdr", "--range=tail", "-C", "trailer"},
		{"--seek_bytes=" + num(s.tailOff), "--count=2", "-C", "trailer"},
		// Two types in sequence, each in its range.
		{"--header=file_hdr", "-C", "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext,range=recs),trailer(range=tail)"},
		// --hex, -V.
		{"--hex", "--header=file_hdr", "--range=recs", "-C", typed},
		{"-V", "--header=file_hdr", "--range=recs", "-C", typed},
		{"-V", "--header=file_hdr", "--seek_bytes=$header.recs.offset", "--size_bytes=$header.recs.size", "-C", withFilter("kind==MIXED")},
		// The header alone: --header T is -C T --count 1.
		{"--header=file_hdr"},
		{"--hex", "-C", "file_hdr", "--count=1"},
		// Types pahole dumps in hex: a typedef'd struct, a union.
		{"-C", "inner_t", "--count=3"},
		{"--seek_bytes=8", "-C", "span", "--count=2"},
		// A type_enum of three enums (Debian's 1.24 split "A+B+C" after
		// the second name), a filter on an enumerator of value -1 (1.24
		// took -1 for "not found").
		{"--header=file_hdr", "--range=recs", "-C", "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext+rec_kind_last)"},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("filter=kind==ANY")},
		{"--header=file_hdr", "--range=recs", "-C", withFilter("kind==REC_EXT_ANY")},
		// pahole 1.32 seeks in a file (fseek) and so goes back: to a
		// --seek_bytes inside the header, and to the records after the
		// trailers that follow them.
		{"--header=file_hdr", "--seek_bytes=16", "-C", "trailer", "--count=2"},
		{"--header=file_hdr", "--seek_bytes=0", "--count=1", "-C", "trailer"},
		{"--hex", "--header=file_hdr", "--seek_bytes=0x10", "--count=1", "-C", "file_hdr"},
		{"--header=file_hdr", "-C", "trailer(range=tail),rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext,range=recs)"},
		{"-V", "--header=file_hdr", "-C", "trailer(range=tail),rec_hdr(sizeof=len,range=recs)"},
	}
	for _, args := range cases {
		args = append(append([]string{"-F", "dwarf", obj}, args...), "--prettify="+data)
		samePaholeOutput(t, "", args...)
	}
	// Standard input from the file, which seeks as the file does.
	samePaholeOutput(t, data, "-F", "dwarf", obj, "--seek_bytes="+num(s.recsOff), "--size_bytes="+num(s.recsSize), "-C", typed, "--prettify", "-")
	samePaholeOutput(t, data, "-F", "dwarf", obj, "--header=file_hdr", "-C", "trailer(range=tail),rec_hdr(sizeof=len,range=recs)", "--prettify", "-")
	// Standard input from a pipe: forward only. (pahole 1.32 counts the
	// offsets there, where 1.31 missed the header's; its -V prints
	// offset=0xffffffffffffffff for each record, which btfkit does not.)
	for _, args := range [][]string{
		{"--header=file_hdr", "--range=recs", "-C", typed},
		{"--header=file_hdr", "--seek_bytes=$header.tail.offset", "--size_bytes=$header.tail.size", "-C", "trailer"},
		{"--seek_bytes=" + num(s.tailOff), "--count=2", "-C", "trailer"},
	} {
		args = append(append([]string{"-F", "dwarf", obj}, args...), "--prettify=-")
		want, werr, wcode := runPipe(t, "pahole", s.data, args...)
		got, gerr, gcode := runPipe(t, "", s.data, args...)
		if wcode != 0 || gcode != 0 || got != want || got == "" {
			t.Errorf("pahole %s < pipe: exit %d (%s), pahole 1.32's %d (%s):\n%s", strings.Join(args, " "), gcode, gerr, wcode, werr, firstDiff(got, want))
		}
	}
	// Two ranges, the second after the first, on a pipe: pahole 1.32
	// prints the first range's records, then "Couldn't seek to offset 377
	// for range=tail" (it cannot skip forward on a pipe once a class is
	// done; 1.31 could). btfkit skips forward and prints what pahole
	// prints from the file.
	args := []string{"-F", "dwarf", obj, "--header=file_hdr", "-C", "rec_hdr(sizeof=len,type=kind,type_enum=rec_kind+rec_kind_ext,range=recs),trailer(range=tail)"}
	fromFile := samePaholeOutput(t, "", append(args, "--prettify="+data)...)
	pipeOut, pipeErr, _ := runPipe(t, "pahole", s.data, append(args, "--prettify=-")...)
	if !strings.HasPrefix(fromFile, pipeOut) || len(pipeOut) >= len(fromFile) || !strings.Contains(pipeErr, "Couldn't seek to offset") {
		t.Logf("pahole now reads the second range from a pipe: %q", pipeErr)
	}
	if got, gerr, gcode := runPipe(t, "", s.data, append(args, "--prettify=-")...); gcode != 0 || got != fromFile {
		t.Errorf("two ranges < pipe: exit %d (%s), not what pahole prints from the file:\n%s", gcode, gerr, firstDiff(got, fromFile))
	}
}

// TestPrettifyArrays: records with multi-dimensional arrays
// (pretty/testdata/arrays.c), from DWARF and from the BTF the pahole on
// PATH (1.32) makes of it, one ARRAY per dimension, which it folds back
// when it prints: a char array of any dimensions is a string, only a
// one-dimensional array of integers is "{ ... }".
func TestPrettifyArrays(t *testing.T) {
	requirePahole(t)
	obj, _ := prettyFixture(t, "arrays.c")
	btfObj := filepath.Join(t.TempDir(), "arrays-btf.o")
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(btfObj, b, 0o644); err != nil {
		t.Fatal(err)
	}
	testc.Run(t, "pahole", "-J", btfObj)
	data := filepath.Join(t.TempDir(), "arrays.data")
	raw := make([]byte, 300)
	for i := range raw {
		raw[i] = byte('A' + i%58)
	}
	if err := os.WriteFile(data, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]string{{"-F", "dwarf", obj}, {"-F", "btf", btfObj}} {
		for _, args := range [][]string{
			{"-C", "md", "--count=2"},
			{"--hex", "-C", "md", "--count=1"},
		} {
			out := samePaholeOutput(t, "", append(append(append([]string{}, in...), args...), "--prettify="+data)...)
			if !strings.Contains(out, ".name = \"ABCDEFGH\"") || !strings.Contains(out, ".one = { ") {
				t.Errorf("pahole %s: the char array is no string or the int array no list:\n%s", strings.Join(in, " "), out)
			}
		}
	}
}
