package dwarf

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// parseStats parses `btfkit dwarf-stats` output and checks its order.
func parseStats(t *testing.T, out []byte) readelfHist {
	t.Helper()
	byName := map[string]Tag{}
	for tag, name := range tagNames {
		byName[name] = tag
	}
	h := readelfHist{Tags: map[Tag]int{}}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "units ") || !strings.HasPrefix(lines[1], "dies ") {
		t.Fatalf("unexpected output:\n%s", out)
	}
	h.Units, _ = strconv.Atoi(strings.TrimPrefix(lines[0], "units "))
	h.DIEs, _ = strconv.Atoi(strings.TrimPrefix(lines[1], "dies "))
	prev := ""
	for _, l := range lines[2:] {
		name, num, ok := strings.Cut(l, " ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			t.Fatalf("bad line %q", l)
		}
		if name <= prev {
			t.Errorf("tag lines not sorted by name: %q after %q", name, prev)
		}
		prev = name
		tag, ok := byName[name]
		if !ok {
			v, err := strconv.ParseUint(strings.TrimPrefix(name, "DW_TAG_0x"), 16, 16)
			if err != nil {
				t.Fatalf("bad tag name %q", name)
			}
			tag = Tag(v)
		}
		h.Tags[tag] = n
	}
	return h
}

// TestCLIDwarfStats runs `btfkit dwarf-stats` on corpus objects (compared
// with readelf) and, unless -short, on the Debian vmlinux (compared with
// readelf and the 2,172 units and 14,259,548 DIEs).
func TestCLIDwarfStats(t *testing.T) {
	exe := testenv.Btfkit(t)
	files := []string{
		testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-4", "-O2", "-fdebug-types-section"}}),
		testc.Compile(t, filepath.Join(testc.CorpusDir(), "tags.c"), testc.Variant{CC: testc.Clang, Flags: []string{"-gdwarf-5", "-O0"}}),
	}
	if !testing.Short() && !raceEnabled {
		if v, _, err := testenv.Kernel(); err == nil {
			files = append(files, v)
		} else {
			testenv.SkipPartOrFail(t, "vmlinux not checked: %v", err)
		}
	}
	for _, f := range files {
		out, err := exec.Command(exe, "dwarf-stats", "-j", "2", f).Output()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got := parseStats(t, out)
		var want readelfHist
		if strings.HasPrefix(filepath.Base(f), "vmlinux") {
			want = cachedReadelfHist(t, f)
		} else {
			want = runReadelfHist(t, f)
		}
		s := &Stats{Units: got.Units, DIEs: got.DIEs, Tags: got.Tags}
		compareHist(t, "btfkit dwarf-stats "+filepath.Base(f), s, want)
		if strings.HasPrefix(filepath.Base(f), "vmlinux") && (got.Units != 2172 || got.DIEs != 14259548) {
			t.Errorf("vmlinux: units %d dies %d; the issue says 2172 and 14259548", got.Units, got.DIEs)
		}
	}
}

// TestCLIDwarfStatsErrors corrupts DWARF in copies of an object file and
// checks the command fails with exit status 1 and a message naming the
// file, the section and the offset.
func TestCLIDwarfStatsErrors(t *testing.T) {
	exe := testenv.Btfkit(t)
	obj := testc.Compile(t, filepath.Join(testc.CorpusDir(), "types.c"), testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O0"}})
	raw, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	info := ef.Section(".debug_info")
	abbrev := ef.Section(".debug_abbrev")
	ef.Close()
	dir := t.TempDir()
	for i, c := range []struct {
		name    string
		corrupt func(b []byte)
		want    string
	}{
		{"unit length beyond section", func(b []byte) { copy(b[info.Offset:], []byte{0xf0, 0xff, 0xff, 0x0f}) }, `\.debug_info\+0x0: unit length`},
		{"bad version", func(b []byte) { b[info.Offset+4] = 9 }, `\.debug_info\+0x0: unsupported DWARF version 9`},
		{"unknown abbreviation", func(b []byte) { b[info.Offset+12] = 0x7f }, `\.debug_info\+0xc: unknown abbreviation code 127`},
		{"unknown form", func(b []byte) { b[abbrev.Offset+4] = 0x7e }, `\.debug_abbrev\+0x[0-9a-f]+: abbreviation 1: unknown form`},
	} {
		b := append([]byte(nil), raw...)
		c.corrupt(b)
		path := filepath.Join(dir, fmt.Sprintf("bad%d.o", i))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "dwarf-stats", path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Errorf("%s: %v, want exit status 1", c.name, err)
		}
		re := regexp.MustCompile("^btfkit: " + regexp.QuoteMeta(path) + ": " + c.want)
		if !re.MatchString(stderr.String()) {
			t.Errorf("%s: stderr %q does not match %q", c.name, stderr.String(), re)
		}
	}
}
