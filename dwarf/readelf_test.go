package dwarf

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// readelfHist is the unit count, DIE count and tag histogram that
// `readelf --debug-dump=info` prints for a file (.debug_info and
// .debug_types).
type readelfHist struct {
	Units int
	DIEs  int
	Tags  map[Tag]int
}

// runReadelfHist runs readelf and counts its output.
func runReadelfHist(t testing.TB, path string) readelfHist {
	t.Helper()
	testc.Require(t, "readelf")
	byName := map[string]Tag{}
	for tag, name := range tagNames {
		byName[name] = tag
	}
	cmd := exec.Command("readelf", "--debug-dump=info", "--debug-dump=no-follow-links", "--wide", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := readelfHist{Tags: map[Tag]int{}}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 2 && line[1] == '<' {
			// " <1><2d>: Abbrev Number: 5 (DW_TAG_base_type)"
			s := string(line)
			i := strings.Index(s, "Abbrev Number: ")
			if i < 0 {
				continue
			}
			j := strings.IndexByte(s[i:], '(')
			if j < 0 {
				continue // null entry: "Abbrev Number: 0"
			}
			name := strings.TrimSuffix(s[i+j+1:], ")")
			tag, ok := byName[name]
			if !ok {
				// "User TAG value: 0x6000", "Unknown TAG value: 0x41"
				k := strings.LastIndex(name, "0x")
				v, err := strconv.ParseUint(name[k+2:], 16, 16)
				if k < 0 || err != nil {
					t.Fatalf("readelf: cannot parse tag in %q", s)
				}
				tag = Tag(v)
			}
			h.DIEs++
			h.Tags[tag]++
		} else if strings.HasPrefix(string(line), "  Compilation Unit @ offset") {
			h.Units++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("readelf %s: %v", path, err)
	}
	return h
}

// cachedReadelfHist is runReadelfHist cached in the user cache directory,
// keyed by path, size and modification time: readelf takes about a minute
// on the Debian vmlinux.
func cachedReadelfHist(t testing.TB, path string) readelfHist {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return runReadelfHist(t, path)
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", path, st.Size(), st.ModTime().UnixNano())))
	file := filepath.Join(dir, "btfkit", "readelf-hist-"+hex.EncodeToString(sum[:8])+".json")
	if b, err := os.ReadFile(file); err == nil {
		var h readelfHist
		if json.Unmarshal(b, &h) == nil && h.DIEs > 0 {
			return h
		}
	}
	h := runReadelfHist(t, path)
	if b, err := json.Marshal(h); err == nil {
		os.MkdirAll(filepath.Dir(file), 0o755)
		os.WriteFile(file+".tmp", b, 0o644)
		os.Rename(file+".tmp", file)
	}
	return h
}

func compareHist(t *testing.T, label string, got *Stats, want readelfHist) {
	t.Helper()
	if got.Units != want.Units || got.DIEs != want.DIEs {
		t.Errorf("%s: %d units, %d DIEs; readelf %d units, %d DIEs", label, got.Units, got.DIEs, want.Units, want.DIEs)
	}
	for tag, n := range want.Tags {
		if got.Tags[tag] != n {
			t.Errorf("%s: %v: %d, readelf %d", label, tag, got.Tags[tag], n)
		}
	}
	for tag, n := range got.Tags {
		if _, ok := want.Tags[tag]; !ok {
			t.Errorf("%s: %v: %d, readelf none", label, tag, n)
		}
	}
}

// TestReadelfCorpus checks units, DIE counts and tag histograms against
// readelf on every corpus object, including the DWARF 4 .debug_types and
// DWARF 5 COMDAT type units debug/dwarf cannot walk.
func TestReadelfCorpus(t *testing.T) {
	for _, obj := range corpusObjects(t) {
		d, err := Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		s, err := CountTags(d, 2)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		compareHist(t, filepath.Base(obj), s, runReadelfHist(t, obj))
	}
}

// TestReadelfVmlinux checks the Debian vmlinux against readelf and the
// figures of the issue, with 1, 2, 8 and 32 workers.
func TestReadelfVmlinux(t *testing.T) {
	vmlinux, _ := testenv.KernelInputs(t)
	if raceEnabled {
		t.Skip("SKIP: -race (TestWalkWorkers covers concurrency on modules)")
	}
	want := cachedReadelfHist(t, vmlinux)
	if want.Units != 2172 || want.DIEs != 14259548 {
		t.Errorf("readelf: %d units, %d DIEs; the issue says 2,172 and 14,259,548", want.Units, want.DIEs)
	}
	d, err := Open(vmlinux)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, j := range []int{1, 2, 8, 32} {
		s, err := CountTags(d, j)
		if err != nil {
			t.Fatal(err)
		}
		compareHist(t, fmt.Sprintf("vmlinux -j%d", j), s, want)
	}
}
