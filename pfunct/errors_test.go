package pfunct_test

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
	"github.com/btfkit/btfkit/pfunct"
)

// TestBTFNotes: from BTF, the options only DWARF can answer print what
// pfunct prints (checked by TestFixtures) and say why on stderr.
func TestBTFNotes(t *testing.T) {
	_, btfObj := fixtureObject(t, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	var out, warn bytes.Buffer
	err := pfunct.Run(&out, []string{btfObj}, pfunct.Options{Format: "btf", Formatter: pfunct.ListSizes, DeclInfo: true, Warnings: &warn})
	if err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("-F btf -s printed %q, want nothing (BTF has no sizes)", out.String())
	}
	for _, want := range []string{"from BTF, -s/--sizes has nothing to show: function sizes are in DWARF only",
		"from BTF, -l/--decl_info has nothing to show"} {
		if !strings.Contains(warn.String(), want) {
			t.Errorf("stderr %q lacks %q", warn.String(), want)
		}
	}
	warn.Reset()
	if err := pfunct.Run(&out, []string{btfObj}, pfunct.Options{Format: "btf", Prototypes: true, Warnings: &warn}); err != nil || warn.Len() != 0 {
		t.Errorf("-F btf -P: err %v, stderr %q; want neither", err, warn.String())
	}
}

// TestBadInput: a damaged object or BTF is an error naming the file and
// the place, exit status 1, never a crash.
func TestBadInput(t *testing.T) {
	dwarfObj, btfObj := fixtureObject(t, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	ours := pfunctLink(t)
	dir := t.TempDir()
	data, err := os.ReadFile(dwarfObj)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(dwarfObj)
	if err != nil {
		t.Fatal(err)
	}
	info := f.Section(".debug_info")
	f.Close()
	bad := bytes.Clone(data)
	for i := uint64(0x20); i < 0x40; i++ { // past the unit header: DIEs
		bad[info.Offset+i] = 0xff
	}
	badObj := filepath.Join(dir, "bad.o")
	if err := os.WriteFile(badObj, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	btfData, err := os.ReadFile(btfObj)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.o")
	if err := os.WriteFile(truncated, btfData[:200], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-P", badObj}, "bad.o: .debug_info+0x"},
		{[]string{"-b", badObj}, "bad.o: .debug_info+0x"},
		{[]string{"-s", badObj}, "bad.o: .debug_info+0x"},
		{[]string{"-P", truncated}, "truncated.o"},
		{[]string{"-F", "btf", "-P", truncated}, "truncated.o"},
	} {
		cmd := exec.Command(ours, c.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Errorf("pfunct %s: %v, want exit status 1", strings.Join(c.args, " "), err)
		}
		if !strings.Contains(stderr.String(), c.want) || strings.Contains(stderr.String(), "goroutine") {
			t.Errorf("pfunct %s: stderr %q, want a message with %q", strings.Join(c.args, " "), stderr.String(), c.want)
		}
	}
}

// TestLangExclude: PAHOLE_LANG_EXCLUDE's languages (pfunct 1.31 and later
// read it; 1.24 does not) leave their units out: gcc 12 writes C as DW_LANG_C11.
func TestLangExclude(t *testing.T) {
	dwarfObj, _ := fixtureObject(t, testc.Variant{CC: testc.GCC, Flags: []string{"-gdwarf-5", "-O2"}})
	ours := pfunctLink(t)
	all := runTool(t, "", ours, "-P", dwarfObj)
	if all.code != 0 || all.out == "" {
		t.Fatalf("pfunct -P: %+v", all)
	}
	for _, c := range []struct {
		langs string
		want  string
	}{{"c11", ""}, {"rust", all.out}, {"rust,c11", ""}} {
		cmd := exec.Command(ours, "-P", dwarfObj)
		cmd.Env = append(os.Environ(), "PAHOLE_LANG_EXCLUDE="+c.langs)
		out, err := cmd.Output()
		if err != nil || string(out) != c.want {
			t.Errorf("PAHOLE_LANG_EXCLUDE=%s pfunct -P: %v, %d bytes, want %d", c.langs, err, len(out), len(c.want))
		}
	}
}
