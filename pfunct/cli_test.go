package pfunct_test

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/btfkit/btfkit/internal/testsupport/testc"
)

// TestCommandLine: argp's messages and exit statuses for bad command
// lines, and --usage, against the pfunct on PATH (1.32): both run with
// argv[0] "pfunct". (--help is btfkit's own wording; --devel_version
// names the release followed, as btfkit pahole's does, not sid's tarball.)
func TestCommandLine(t *testing.T) {
	testc.Require(t, "pfunct")
	ours := pfunctLink(t)
	run := func(path string, args ...string) (string, string, int) {
		cmd := exec.Command(path, args...)
		cmd.Args[0] = "pfunct"
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	oracle, err := exec.LookPath("pfunct")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		nil,
		{"-z", "x"},
		{"--ver", "x"},
		{"--in", "x"},
		{"--externals=1", "x"},
		{"--no_such_option", "x"},
		{"-f"},
		{"--class"},
		{"--usage"},
		{"--de", "x"},
		{"--btf"},
		{"--btf_base"},
		{"--btf_base", "/nonexistent"},
		{"--btf_base", "/nonexistent", "x"},
	} {
		wo, we, wc := run(oracle, args...)
		go_, ge, gc := run(ours, args...)
		// argp folds a long "Try" line at 79 columns: compare unfolded.
		we, ge = strings.ReplaceAll(we, "\n", " "), strings.ReplaceAll(ge, "\n", " ")
		if go_ != wo || ge != we || gc != wc {
			t.Errorf("pfunct %s:\n got stdout %q stderr %q status %d\nwant stdout %q stderr %q status %d",
				strings.Join(args, " "), go_, ge, gc, wo, we, wc)
		}
	}
}
