package main

// Pretty printing a perf.data file recorded by `perf record` (Debian's
// linux-perf) at test time, with the layouts of pretty/testdata/perf.c:
// byte-identical to the pahole on PATH (1.32) over the options pahole's own test and man
// page use, the count of each record type equal to `perf report -D`'s, and
// every record's JSON rebuilding its bytes.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/internal/testsupport/prettytest"
	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// perfRecordTypes is the -C of the perf.data tests.
const perfRecordTypes = "perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type)"

var perfFiles struct {
	sync.Mutex
	obj, data string
	spec      *btf.Spec
	skip      string
}

// perfData records a perf.data file of a short command (once per test
// binary) and compiles perf.c. perf runs with its default event, else a
// software one (cpu-clock, dummy), which a VM without a PMU has; when none
// can record here the test skips, saying so (and fails under CI, where it
// runs as root and perf can record).
func perfData(t *testing.T) (obj, data string, spec *btf.Spec) {
	t.Helper()
	testc.Require(t, "perf")
	p := &perfFiles
	p.Lock()
	defer p.Unlock()
	if p.skip != "" {
		testenv.SkipOrFail(t, "%s", p.skip)
	}
	if p.data == "" {
		obj, spec := prettyFixture(t, "perf.c")
		data := filepath.Join(filepath.Dir(obj), "perf.data")
		var errs []string
		for _, ev := range [][]string{nil, {"-e", "cpu-clock"}, {"-e", "dummy"}} {
			args := append(append([]string{"record", "--quiet", "-o", data}, ev...), "--", "sh", "-c", "ls / >/dev/null; sleep 0.01")
			out, err := exec.Command("perf", args...).CombinedOutput()
			if st, serr := os.Stat(data); err == nil && serr == nil && st.Size() > 0 {
				errs = nil
				break
			}
			errs = append(errs, "perf "+strings.Join(args, " ")+": "+strings.TrimSpace(string(out)))
		}
		if errs != nil {
			p.skip = "perf cannot record here: " + strings.Join(errs, "; ")
			testenv.SkipOrFail(t, "%s", p.skip)
		}
		p.obj, p.data, p.spec = obj, data, spec
	}
	return p.obj, p.data, p.spec
}

// perfHeader reads the data section's place from a perf.data file.
func perfHeader(t *testing.T, data string) (off, size uint64) {
	t.Helper()
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var h [56]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		t.Fatal(err)
	}
	if string(h[:8]) != "PERFILE2" {
		t.Fatalf("%s: not a perf.data file", data)
	}
	return binary.LittleEndian.Uint64(h[40:]), binary.LittleEndian.Uint64(h[48:])
}

func TestPrettifyPerfDataMatchesPahole(t *testing.T) {
	requirePahole(t)
	obj, data, _ := perfData(t)
	off, size := perfHeader(t, data)
	typed := func(extra string) string {
		return "perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type" + extra + ")"
	}
	cases := [][]string{
		// The man page's and pahole's own test's forms.
		{"--header=perf_file_header", "--seek_bytes", "$header.data.offset", "--size_bytes=$header.data.size", "-C", perfRecordTypes},
		{"--header=perf_file_header", "--range=data", "-C", perfRecordTypes},
		{"-V", "--header=perf_file_header", "--seek_bytes", "$header.data.offset", "--size_bytes=$header.data.size", "-C", typed(",filter=type==PERF_RECORD_COMM")},
		{"--header=perf_file_header", "--range=data", "-C", typed(",filter=type==MMAP2")},
		{"--header=perf_file_header", "--range=data", "-C", typed(",type==SAMPLE")},
		{"--header=perf_file_header", "--range=data", "-C", typed(",filter=type==9")},
		{"--header=perf_file_header", "--range=data", "-C", typed(",filter=type==PERF_RECORD_EXIT")},
		{"--header=perf_file_header", "--range=data", "-C", "perf_event_header(sizeof,type,type_enum=perf_event_type,filter=type==PERF_RECORD_COMM)"},
		{"--header=perf_file_header", "--range=data", "-C", "perf_event_header(sizeof,type,type_enum=perf_event_type)", "--count", "4"},
		{"--header=perf_file_header", "--range=data", "-C", "perf_event_header(sizeof,type,filter=type==3)"},
		{"--header=perf_file_header", "--range=data", "--count=3", "--skip=2", "-C", perfRecordTypes},
		{"--header=perf_file_header", "--range=data", "--skip=1", "-C", typed(",type==COMM")},
		{"--hex", "--header=perf_file_header", "--range=data", "-C", perfRecordTypes},
		// Offsets as numbers, without the header.
		{"--seek_bytes=" + strconv.FormatUint(off, 10), "--size_bytes=" + strconv.FormatUint(size, 10), "-C", perfRecordTypes},
		{"--seek_bytes=0x" + strconv.FormatUint(off, 16), "--count=5", "-C", perfRecordTypes},
		// The header alone, and the attributes then the records.
		{"--hex", "--header", "perf_file_header"},
		{"--header=perf_file_header", "-C", "perf_file_attr(range=attrs)," + typed(",range=data")},
	}
	for _, args := range cases {
		args = append(append([]string{"-F", "dwarf", obj}, args...), "--prettify", data)
		samePaholeOutput(t, "", args...)
	}
}

// perfReportCounts is `perf report -D`'s count of each record type, by
// name without PERF_RECORD_, and the total.
func perfReportCounts(t *testing.T, data string) (map[string]int, int) {
	t.Helper()
	out, err := exec.Command("perf", "report", "-D", "-i", data).Output()
	if err != nil {
		t.Fatalf("perf report -D -i %s: %v", data, err)
	}
	line := regexp.MustCompile(`^\s*(\w+) events:\s+(\d+)`)
	counts, total, in := map[string]int{}, -1, false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "Aggregated stats:") {
			in = true
			continue
		}
		if !in {
			continue
		}
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			break // the per-event stats that follow count samples again
		}
		n, _ := strconv.Atoi(m[2])
		if m[1] == "TOTAL" {
			total = n
		} else {
			counts[m[1]] = n
		}
	}
	if total < 0 {
		t.Fatalf("perf report -D printed no aggregated stats:\n%s", out)
	}
	return counts, total
}

// TestPrettifyPerfDataCounts is what pahole's tests/prettify_perf.data.sh
// checks, for every record type: the records a filter on the type prints
// are as many as perf report -D counts.
func TestPrettifyPerfDataCounts(t *testing.T) {
	obj, data, _ := perfData(t)
	counts, total := perfReportCounts(t, data)
	sum := 0
	for name, want := range counts {
		args := []string{"-F", "dwarf", "-V", obj, "--header=perf_file_header", "--seek_bytes", "$header.data.offset",
			"--size_bytes=$header.data.size", "-C", "perf_event_header(sizeof,type,type_enum=perf_event_type+perf_user_event_type,filter=type==PERF_RECORD_" + name + ")",
			"--prettify", data}
		out, errOut, code := runPahole(t, args...)
		if code != 0 {
			t.Fatalf("pahole %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		got := strings.Count(out, ".type = PERF_RECORD_"+name+",")
		if got != want {
			t.Errorf("PERF_RECORD_%s: %d records, perf report -D counts %d", name, got, want)
		}
		sum += got
	}
	// And nothing else: every record of the data section has its type in
	// perf's stats.
	out, errOut, code := runPahole(t, "-F", "dwarf", obj, "--header=perf_file_header", "--range=data", "-C", perfRecordTypes, "--prettify", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out, "\n},\n") + strings.Count(out, "\n}\n"); n != total || sum != total {
		t.Errorf("%d records in all, %d of the types perf reports; perf report -D counts %d", n, sum, total)
	}
}

// TestPrettifyPerfDataJSONRoundTrip decodes the perf.data as JSON lines
// with `btfkit pretty --format json` and rebuilds every record's bytes from
// its JSON (prettytest.RecordBytes, an independent reading of the format).
func TestPrettifyPerfDataJSONRoundTrip(t *testing.T) {
	obj, data, spec := perfData(t)
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Btfkit(t), "pretty", "--format", "json", "--header", "perf_file_header", "--range", "data",
		"-C", perfRecordTypes, obj, data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("btfkit pretty --format json: %v: %s", err, stderr.String())
	}
	te := &prettytest.TypeEnum{Struct: "perf_event_header", Member: "type", Enums: []string{"perf_event_type", "perf_user_event_type"}}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	off, size := perfHeader(t, data)
	next, types := int64(off), map[string]bool{}
	for i, line := range lines {
		rec, b, err := prettytest.RecordBytes(spec, []byte(line), te)
		if err != nil {
			t.Fatalf("record %d: %v\n%s", i, err, line)
		}
		if i == 0 {
			if !rec.Header || rec.Offset != 0 || rec.Type != "perf_file_header" {
				t.Fatalf("the first record is not the header: %s", line)
			}
		} else if rec.Offset != next {
			t.Fatalf("record %d at offset %d, after the previous one ended at %d", i, rec.Offset, next)
		} else {
			next += int64(rec.Size)
			types[rec.Type] = true
		}
		if want := raw[rec.Offset : rec.Offset+int64(rec.Size)]; !bytes.Equal(b, want) {
			t.Errorf("record %d (%s at %d): rebuilt from its JSON\n%x\nit is\n%x\n%s", i, rec.Type, rec.Offset, b, want, line)
		}
	}
	if next != int64(off+size) {
		t.Errorf("the records end at %d, the data section at %d", next, off+size)
	}
	for _, ty := range []string{"perf_record_comm", "perf_record_mmap2", "perf_record_sample"} {
		if !types[ty] {
			t.Errorf("no %s record in the perf.data: the round trip covers less than it should", ty)
		}
	}
}
