package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// runOnTerminal runs bin with args, its standard error a pseudo-terminal
// (and standard output a pipe), and returns what it wrote to each and its
// exit status.
func runOnTerminal(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("SKIP: no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 120}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, tty
	if err := cmd.Start(); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	tty.Close() // the child holds it now: the master reads EOF (EIO) when it exits
	var term bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(&term, ptmx)
		done <- err
	}()
	werr := cmd.Wait()
	if err := <-done; err != nil && !errors.Is(err, syscall.EIO) {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	switch {
	case werr == nil:
	case errors.As(werr, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(werr)
	}
	return out.String(), term.String(), code
}

// barLine matches what the progress bar draws: done/total, a rate and the
// time left in brackets (elapsed:left).
var barLine = regexp.MustCompile(`\(\d+/(\d+), [0-9.]+ (modules|units)/(s|min|hr)\) \[[0-9.smh]+:[0-9.smh]+\]`)

// cleared reports whether the last bar drawn in term is followed by the
// erasing of its line (ESC [2K), as the bar does when it is done.
func cleared(term string) bool {
	m := barLine.FindAllStringIndex(term, -1)
	return len(m) > 0 && strings.Contains(term[m[len(m)-1][1]:], "\x1b[2K")
}

// TestProgressModules: a module batch draws its progress bar (modules done
// of all, rate, time left) on a terminal, and finishes at all of them;
// with -q, or with standard error not a terminal, nothing of it appears.
func TestProgressModules(t *testing.T) {
	base := modBase(t)
	mods := testenv.ModuleSample(t, 4)
	bin := testenv.Btfkit(t)
	dir := t.TempDir()
	args := func(out string, extra ...string) []string {
		return append(append([]string{"encode", "-j2", "--base", base, "--out-dir", filepath.Join(dir, out)}, extra...), mods...)
	}

	_, term, code := runOnTerminal(t, bin, args("tty")...)
	if code != 0 {
		t.Fatalf("status %d: %q", code, term)
	}
	m := barLine.FindAllStringSubmatch(term, -1)
	if len(m) == 0 || m[0][1] != fmt.Sprint(len(mods)) || m[0][2] != "modules" {
		t.Fatalf("no progress of %d modules on the terminal: %q", len(mods), term)
	}
	sum := strings.Index(term, fmt.Sprintf("%d modules, %d written, 0 failed", len(mods), len(mods)))
	if sum < 0 || !cleared(term[:sum]) {
		t.Errorf("no summary after the bar was cleared: %q", term)
	}

	_, term, code = runOnTerminal(t, bin, args("quiet", "-q")...)
	if code != 0 || term != "" {
		t.Errorf("-q on a terminal: status %d, stderr %q (want nothing)", code, term)
	}

	_, stderr, code := runCmd(t, bin, args("pipe")...)
	if code != 0 || barLine.MatchString(stderr) || strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("not a terminal: status %d, stderr %q (want the summary alone)", code, stderr)
	}
	for _, sub := range []string{"tty", "quiet", "pipe"} {
		if n, _ := os.ReadDir(filepath.Join(dir, sub)); len(n) != len(mods) {
			t.Errorf("%s: %d outputs, want %d", sub, len(n), len(mods))
		}
	}
}

// TestProgressVmlinux: encoding the vmlinux draws the compile units
// converted of all on a terminal; with -q and without a terminal its
// standard error stays empty.
func TestProgressVmlinux(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: encodes the vmlinux three times")
	}
	vmlinux, _ := testenv.KernelInputs(t)
	bin := testenv.Btfkit(t)
	out := filepath.Join(t.TempDir(), "vmlinux.btf")

	_, term, code := runOnTerminal(t, bin, "encode", "-j2", "-o", out, vmlinux)
	if code != 0 {
		t.Fatalf("status %d: %q", code, term)
	}
	m := barLine.FindAllStringSubmatch(term, -1)
	if len(m) == 0 || m[0][2] != "units" || m[0][1] == "0" {
		t.Fatalf("no progress of compile units on the terminal: %q", term)
	}
	if !cleared(term) {
		t.Errorf("the bar was not cleared at the end: %q", term)
	}

	if _, term, code = runOnTerminal(t, bin, "encode", "-q", "-j2", "-o", out, vmlinux); code != 0 || term != "" {
		t.Errorf("-q on a terminal: status %d, stderr %q (want nothing)", code, term)
	}
	if _, stderr, code := runCmd(t, bin, "encode", "-j2", "-o", out, vmlinux); code != 0 || stderr != "" {
		t.Errorf("not a terminal: status %d, stderr %q (want nothing)", code, stderr)
	}
}
