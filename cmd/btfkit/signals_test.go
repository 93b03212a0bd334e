package main

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
	"github.com/btfkit/btfkit/kmod"
)

// signalJob is a command that writes files, for TestSignalsDuringWrite:
// setup prepares a fresh directory (earlier outputs, in-place inputs),
// args gives the command line for it, outputs names the files it writes.
type signalJob struct {
	name    string
	setup   func(t *testing.T, dir string)
	args    func(dir string) []string
	outputs []string
}

// TestSignalsDuringWrite sends SIGINT or SIGTERM to commands that write
// files at random points of their run (uniformly spread over the time an
// uninterrupted run takes, then jittered; the seed is logged): a batch
// encoding 24 modules to --out-dir, one module to -o, --in-place, dedup
// and a C header of the vmlinux's BTF. Whenever the signal lands, the
// command exits with 128+signal and says so (or had already finished
// with 0, or was killed before Go installed its handler), no temporary
// file is left, and every output is either the earlier file or exactly
// what an uninterrupted run writes.
func TestSignalsDuringWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: commands as processes run in the plain test run (-short)")
	}
	base := modBase(t)
	mods := testenv.ModuleSample(t, 24)
	one := testenv.Module(t, "xfs")
	modIn := func(dir string) string { return filepath.Join(dir, "in.ko") }
	var batchOut []string
	for _, m := range mods {
		batchOut = append(batchOut, "out/"+kmod.Name(m)+".btf")
	}
	earlier := func(files ...string) func(*testing.T, string) {
		return func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, "out"), 0o755)
			for i, f := range files {
				if i%2 == 0 { // half of them exist already
					os.WriteFile(filepath.Join(dir, f), []byte("earlier output\n"), 0o644)
				}
			}
		}
	}
	jobs := []signalJob{
		{"encode --out-dir", earlier(batchOut...), func(dir string) []string {
			return append([]string{"encode", "-j", "4", "--base", base, "--out-dir", filepath.Join(dir, "out")}, mods...)
		}, batchOut},
		{"encode -o", earlier("out/xfs.btf"), func(dir string) []string {
			return []string{"encode", "--base", base, "-o", filepath.Join(dir, "out/xfs.btf"), one}
		}, []string{"out/xfs.btf"}},
		{"encode --in-place", func(t *testing.T, dir string) { copyFile(t, one, modIn(dir)) }, func(dir string) []string {
			return []string{"encode", "--base", base, "--in-place", modIn(dir)}
		}, []string{"in.ko"}},
		{"dedup -o", earlier("out/dedup.btf"), func(dir string) []string {
			return []string{"dedup", "-o", filepath.Join(dir, "out/dedup.btf"), base, base}
		}, []string{"out/dedup.btf"}},
		{"dump --format c -o", earlier("out/vmlinux.h"), func(dir string) []string {
			return []string{"dump", "--format", "c", "-o", filepath.Join(dir, "out/vmlinux.h"), base}
		}, []string{"out/vmlinux.h"}},
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	const trials = 8
	for _, j := range jobs {
		t.Run(strings.ReplaceAll(j.name, " ", "_"), func(t *testing.T) {
			// An uninterrupted run: the reference outputs and time.
			ref := t.TempDir()
			j.setup(t, ref)
			before := snapshot(t, ref, j.outputs)
			t0 := time.Now()
			if _, stderr, code := btfkit(t, j.args(ref)...); code != 0 {
				t.Fatalf("uninterrupted: exit status %d\n%s", code, stderr)
			}
			took := time.Since(t0)
			want := snapshot(t, ref, j.outputs)
			for i := 0; i < trials; i++ {
				dir := t.TempDir()
				j.setup(t, dir)
				delay := time.Duration((float64(i) + r.Float64()) / trials * float64(took))
				sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
				code, stderr := runSignalled(t, j.args(dir), delay, sig)
				switch {
				case code == 0:
				case code == 128+int(sig):
					if !strings.Contains(stderr, "stopped by") {
						t.Errorf("after %v, %v: exit status %d without saying why: %q", delay, sig, code, stderr)
					}
				case code == -1:
					// Killed by the signal itself: it came before
					// the runtime installed the handler.
				default:
					t.Errorf("after %v, %v: exit status %d\n%s", delay, sig, code, stderr)
				}
				got := snapshot(t, dir, j.outputs)
				for k, f := range j.outputs {
					if !bytes.Equal(got[k], before[k]) && !bytes.Equal(got[k], want[k]) {
						t.Errorf("after %v, %v (exit %d): %s is %d bytes, neither the earlier %d nor the complete %d", delay, sig, code, f, len(got[k]), len(before[k]), len(want[k]))
					}
				}
				filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
					if err == nil && strings.Contains(d.Name(), ".btfkit-") {
						t.Errorf("after %v, %v (exit %d): temporary file %s left", delay, sig, code, p)
					}
					return nil
				})
			}
		})
	}
}

// snapshot reads the files (nil for a missing one).
func snapshot(t *testing.T, dir string, files []string) [][]byte {
	t.Helper()
	out := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// runSignalled runs btfkit, sends it sig after delay (if it still runs),
// and returns its exit status (-1 when the signal killed it) and stderr.
func runSignalled(t *testing.T, args []string, delay time.Duration, sig syscall.Signal) (int, string) {
	t.Helper()
	cmd := exec.Command(testenv.Btfkit(t), args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(delay, func() { cmd.Process.Signal(sig) })
	err := cmd.Wait()
	timer.Stop()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), errb.String()
}
