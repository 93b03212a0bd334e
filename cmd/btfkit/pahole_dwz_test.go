package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// dwzWarning is the first line of pahole 1.32's warning for a file whose
// dwz alternate file is missing or of another build.
const dwzWarning = "WARNING: could not resolve dwz alternate debug file for "

// TestPaholeDwzLayouts: two programs sharing a header, moved by `dwz -m`
// into an alternate file (.gnu_debugaltlink, DW_FORM_GNU_ref_alt), listed
// by btfkit pahole and pfunct and by pahole 1.32 and its pfunct (the
// first on PATH): the same output and the same standard error, with the
// alternate file, and without it (pahole warns once, in four lines, and
// lists what it has). Given an alternate file of that name made from
// other programs, pahole 1.32 does not check the build ID that
// .gnu_debugaltlink records and prints the other file's types as the
// program's (and "couldn't find" lines): btfkit treats that file as
// missing, as its warning says ("build-id mismatch"), and its output must
// be what it was without the file.
func TestPaholeDwzLayouts(t *testing.T) {
	testc.Require(t, "gcc", "dwz", "pahole", "pfunct")
	dir := t.TempDir()
	hdr := `struct shared_base { int id; long flags; char *name; void *data; };
struct shared_list { struct shared_base base; struct shared_list *next; double value; char buf[64]; };
enum shared_state { STATE_INIT, STATE_RUNNING, STATE_PAUSED };
typedef int (*shared_callback_t)(struct shared_base *, enum shared_state);
struct shared_context { struct shared_base base; struct shared_list *items; shared_callback_t cb; enum shared_state state; char desc[128]; };
`
	files := map[string]string{
		"shared.h": hdr,
		"p1.c":     "#include \"shared.h\"\nint lib_init(struct shared_context *c) { c->state = STATE_INIT; return 0; }\nint main(void) { struct shared_context c = { .base = { .id = 1 } }; return lib_init(&c); }\n",
		"p2.c":     "#include \"shared.h\"\nlong work(struct shared_context *c) { struct shared_list n = { .value = 1 }; c->items = &n; return c->base.flags; }\nint main(void) { struct shared_context c = { .base = { .id = 2 } }; return (int)work(&c); }\n",
		"o.h":      "struct other { long x, y, z; char pad[40]; };\nstruct other2 { struct other o; int k; };\n",
		"o1.c":     "#include \"o.h\"\nstruct other2 g1;\nint main(void) { return g1.k; }\n",
		"o2.c":     "#include \"o.h\"\nstruct other2 g2;\nint main(void) { return g2.k + 1; }\n",
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := func(out, src string) {
		testc.Run(t, "gcc", "-gdwarf-4", "-I", dir, "-o", filepath.Join(dir, out), filepath.Join(dir, src))
	}
	build("p1", "p1.c")
	build("p2", "p2.c")
	build("o1", "o1.c")
	build("o2", "o2.c")
	dwz := func(alt string, progs ...string) {
		cmd := exec.Command("dwz", append([]string{"-m", alt}, progs...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("dwz -m %s %v: %v\n%s", alt, progs, err, out)
		}
	}
	dwz("dwz_alt", "p1", "p2")
	// Another alternate file, of other programs, to stand in for p1's.
	dwz("other_alt", "o1", "o2")

	type result struct{ out, err string }
	cases := [][]string{{"p1"}, {"-C", "shared_context", "p1"}, {"-E", "-C", "shared_list", "p2"}, {"--compile", "p2"}}
	pfCases := [][]string{{"p1"}, {"-P", "p2"}}
	// check runs every case; with oracle nil it compares with the tools
	// on PATH, otherwise with oracle (what check returned before).
	check := func(state string, wantWarn bool, oracle map[string]result) map[string]result {
		t.Helper()
		seen := map[string]result{}
		for _, args := range cases {
			key := "pahole " + strings.Join(args, " ")
			got, gotErr, code := runPaholeInDir(t, dir, args...)
			seen[key] = result{got, gotErr}
			if oracle != nil {
				if w := oracle[key]; got != w.out || gotErr != w.err {
					t.Errorf("%s: %s: output or stderr differs from the run without the file:\n%s\n%s", state, key, gotErr, got)
				}
			} else if want, wantErr, wcode := toolIn(t, dir, "pahole", args...); code != wcode || got != want || gotErr != wantErr {
				t.Errorf("%s: %s: status %d, stderr %q; pahole 1.32: status %d, stderr %q; output same: %v\n--- got\n%.1500s\n--- want\n%.1500s",
					state, key, code, gotErr, wcode, wantErr, got == want, got, want)
			}
			if n := strings.Count(gotErr, dwzWarning); (n == 1) != wantWarn || n > 1 {
				t.Errorf("%s: %s: %d warnings, want %v", state, key, n, wantWarn)
			}
			if !wantWarn && !strings.Contains(got, "struct shared_") {
				t.Errorf("%s: %s listed no shared struct:\n%s", state, key, got)
			}
		}
		for _, args := range pfCases {
			key := "pfunct " + strings.Join(args, " ")
			var o, e bytes.Buffer
			wd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			code := pfunctMain("pfunct", args, &o, &e)
			if err := os.Chdir(wd); err != nil {
				t.Fatal(err)
			}
			seen[key] = result{o.String(), e.String()}
			if oracle != nil {
				if w := oracle[key]; o.String() != w.out || e.String() != w.err {
					t.Errorf("%s: %s: output or stderr differs from the run without the file: %q %q", state, key, e.String(), o.String())
				}
			} else if want, wantErr, wcode := toolIn(t, dir, "pfunct", args...); code != wcode || o.String() != want || e.String() != wantErr {
				t.Errorf("%s: %s: status %d, stderr %q, stdout %q; pfunct 1.32: %d, %q, %q",
					state, key, code, e.String(), o.String(), wcode, wantErr, want)
			}
		}
		return seen
	}
	check("with the alternate file", false, nil)

	alt := filepath.Join(dir, "dwz_alt")
	if err := os.Rename(alt, alt+".away"); err != nil {
		t.Fatal(err)
	}
	missing := check("without the alternate file", true, nil)

	if err := os.Rename(filepath.Join(dir, "other_alt"), alt); err != nil {
		t.Fatal(err)
	}
	check("with another build's alternate file", true, missing)
}

// runPaholeInDir runs btfkit pahole in dir (the file names in args and in
// the warnings stay as given).
func runPaholeInDir(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	return runPahole(t, args...)
}

// toolIn runs a dwarves tool on PATH (1.32's) in dir.
func toolIn(t *testing.T, dir, tool string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}
