package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestEncodeAllUnitsExcluded: when --lang_exclude leaves out every unit
// of the file there is nothing to encode, and pahole 1.32 writes nothing
// and exits 0: no detached file, no .BTF in the file. btfkit pahole does
// the same, and btfkit encode says so on stderr and writes no file.
func TestEncodeAllUnitsExcluded(t *testing.T) {
	testc.Require(t, "gcc", "pahole", "readelf")
	dir := t.TempDir()
	src := filepath.Join(dir, "c11.c")
	if err := os.WriteFile(src, []byte("struct s { int a; } v;\nint f(struct s *p) { return p->a; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "c11.o")
	testc.Run(t, "gcc", "-std=c11", "-gdwarf-5", "-O2", "-c", "-o", obj, src)
	for _, tool := range []string{"pahole", "btfkit"} {
		out := filepath.Join(dir, tool+".btf")
		inPlace := filepath.Join(dir, tool+".o")
		testc.Run(t, "cp", obj, inPlace)
		for _, args := range [][]string{
			{"-J", "--btf_features=default", "--lang_exclude=c11", "--btf_encode_detached=" + out, obj},
			{"-J", "--btf_features=default", "--lang_exclude=c11", inPlace},
		} {
			var code int
			var errOut string
			if tool == "pahole" {
				_, errOut, code = runCmd(t, "pahole", args...)
			} else {
				_, errOut, code = runPahole(t, args...)
			}
			if code != 0 {
				t.Errorf("%s %v: status %d: %s", tool, args, code, errOut)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s wrote %s (%v)", tool, out, err)
		}
		if secs, _, _ := runCmd(t, "readelf", "-SW", inPlace); containsWord(secs, ".BTF") {
			t.Errorf("%s added a .BTF to the file", tool)
		}
	}
	out := filepath.Join(dir, "encode.btf")
	if _, stderr, code := btfkit(t, "encode", "--lang-exclude", "c11", "-o", out, obj); code != 0 || stderr == "" {
		t.Errorf("btfkit encode: status %d, stderr %q; want 0 and a word", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("btfkit encode wrote %s (%v)", out, err)
	}
}

// containsWord reports whether s has w between blanks.
func containsWord(s, w string) bool {
	return slices.Contains(strings.Fields(s), w)
}
