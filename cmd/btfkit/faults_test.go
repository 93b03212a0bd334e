package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/btfkit/btfkit/internal/testsupport/testenv"
)

// writer is a command that writes one file: args gives its command line
// for the output (or, in place, the input) at path.
type writer struct {
	name    string
	file    string // the file's name in the directory under test
	inPlace bool   // the file is the input, rewritten in place
	args    func(path string) []string
}

// faultWriters are the commands that write a file, each the way a user
// runs it: obj is an object file with DWARF, ref its BTF.
func faultWriters(obj, ref string) []writer {
	return []writer{
		{"encode -o", "out.btf", false, func(p string) []string { return []string{"encode", "-o", p, obj} }},
		{"encode --out-dir", "types.btf", false, func(p string) []string {
			return []string{"encode", "--out-dir", filepath.Dir(p), filepath.Join(filepath.Dir(obj), "types.ko")}
		}},
		{"pahole --btf_encode_detached", "out.btf", false, func(p string) []string {
			return []string{"pahole", "-J", "--btf_encode_detached=" + p, obj}
		}},
		{"dedup -o", "out.btf", false, func(p string) []string { return []string{"dedup", "-o", p, ref, ref} }},
		{"dump --format c -o", "vmlinux.h", false, func(p string) []string { return []string{"dump", "--format", "c", "-o", p, ref} }},
		{"sort -o", "out.btf", false, func(p string) []string { return []string{"sort", "-o", p, ref} }},
		{"downgrade -o", "out.btf", false, func(p string) []string {
			return []string{"downgrade", "--target-kernel", "5.2", "-o", p, ref}
		}},
		{"encode --in-place", "types.o", true, func(p string) []string { return []string{"encode", "--in-place", p} }},
		{"pahole -J", "types.o", true, func(p string) []string { return []string{"pahole", "-J", p} }},
	}
}

// faultInputs compiles the object the writers read into a directory any
// user can read, with its BTF and a copy named as a module.
func faultInputs(t *testing.T) (dir, obj, ref string) {
	t.Helper()
	dir = t.TempDir()
	openUp(t, dir)
	obj = filepath.Join(dir, "types.o")
	paholeCopyFile(t, paholeFixture(t, "types.c"), obj)
	paholeCopyFile(t, obj, filepath.Join(dir, "types.ko"))
	ref = filepath.Join(dir, "ref.btf")
	if _, stderr, code := btfkit(t, "encode", "-o", ref, obj); code != 0 {
		t.Fatalf("encode: %s", stderr)
	}
	return dir, obj, ref
}

// openUp makes dir and its parent searchable and readable by anyone (the
// tests run commands as nobody), and what is in it.
func openUp(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory, unmounted
// at the end of the test. It needs root (CI runs as root).
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)+",mode=0777"); err != nil {
		testenv.SkipOrFail(t, "mount -t tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fillUp writes a file into dir until the file system is full.
func fillUp(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// faultCase sets the file up in dir (the earlier output, or the input
// to rewrite), runs the writer with what run does to it, and checks the
// outcome: exit status 1, an error naming the file and saying cause,
// the file exactly as it was, nothing else in the directory.
func faultCase(t *testing.T, w writer, dir, cause string, earlier []byte, run func(args []string) (string, int)) {
	t.Helper()
	p := filepath.Join(dir, w.file)
	stderr, code := run(w.args(p))
	if code != 1 || !strings.Contains(stderr, p) || !strings.Contains(stderr, cause) {
		t.Errorf("%s: exit status %d, stderr %q; want 1 and an error naming %s and saying %q", w.name, code, stderr, p, cause)
	}
	if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, earlier) {
		t.Errorf("%s: the file changed (%d bytes, was %d; %v)", w.name, len(got), len(earlier), err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != w.file && e.Name() != "filler" {
			t.Errorf("%s: %s left in the directory", w.name, e.Name())
		}
	}
}

// TestFaultsFullDisk: every command that writes a file, on a full file
// system (a tmpfs filled up): exit status 1, an error naming the file,
// the earlier file (or the input of an in-place write) as it was, no
// temporary file. Then the same on the tmpfs mounted read-only.
func TestFaultsFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: commands as processes run in the plain test run (-short)")
	}
	_, obj, ref := faultInputs(t)
	objBytes, _ := os.ReadFile(obj)
	for _, w := range faultWriters(obj, ref) {
		t.Run(strings.ReplaceAll(w.name, " ", "_"), func(t *testing.T) {
			// The command works where there is room.
			ok := t.TempDir()
			if w.inPlace {
				os.WriteFile(filepath.Join(ok, w.file), objBytes, 0o644)
			}
			if _, stderr, code := btfkit(t, w.args(filepath.Join(ok, w.file))...); code != 0 {
				t.Fatalf("%s with room: exit status %d: %s", w.name, code, stderr)
			}
			earlier := []byte("earlier output\n")
			if w.inPlace {
				earlier = objBytes
			}
			dir := mountTmpfs(t, 1<<20)
			if err := os.WriteFile(filepath.Join(dir, w.file), earlier, 0o644); err != nil {
				t.Fatal(err)
			}
			fillUp(t, dir)
			faultCase(t, w, dir, "no space left on device", earlier, func(args []string) (string, int) {
				_, stderr, code := btfkit(t, args...)
				return stderr, code
			})
			os.Remove(filepath.Join(dir, "filler"))
			if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
				t.Fatalf("remount read-only: %v", err)
			}
			faultCase(t, w, dir, "read-only file system", earlier, func(args []string) (string, int) {
				_, stderr, code := btfkit(t, args...)
				return stderr, code
			})
		})
	}
}

// TestFaultsPermissions: every command that writes a file, run as an
// unprivileged user (nobody): into a directory it may not write, and to
// a file it may not write (mode 0444) in a directory it may. Exit status
// 1, an error naming the file, the file as it was, no temporary file.
func TestFaultsPermissions(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: commands as processes run in the plain test run (-short)")
	}
	if os.Geteuid() != 0 {
		testenv.SkipOrFail(t, "running commands as nobody needs root")
	}
	inDir, obj, ref := faultInputs(t)
	bin := filepath.Join(inDir, "btfkit")
	paholeCopyFile(t, testenv.Btfkit(t), bin)
	os.Chmod(bin, 0o755)
	objBytes, _ := os.ReadFile(obj)
	asNobody := func(args []string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("running as nobody: %v", err)
		}
		return errb.String(), cmd.ProcessState.ExitCode()
	}
	for _, w := range faultWriters(obj, ref) {
		t.Run(strings.ReplaceAll(w.name, " ", "_"), func(t *testing.T) {
			earlier := []byte("earlier output\n")
			if w.inPlace {
				earlier = objBytes
			}
			// A directory nobody may not write, holding a file it may.
			dir := t.TempDir()
			openUp(t, dir)
			p := filepath.Join(dir, w.file)
			os.WriteFile(p, earlier, 0o666)
			os.Chmod(p, 0o666)
			os.Chmod(dir, 0o555)
			faultCase(t, w, dir, "permission denied", earlier, asNobody)

			// A file nobody may not write, in a directory it may.
			dir = t.TempDir()
			openUp(t, dir)
			os.Chmod(dir, 0o777)
			p = filepath.Join(dir, w.file)
			os.WriteFile(p, earlier, 0o444)
			os.Chmod(p, 0o444)
			faultCase(t, w, dir, "permission denied", earlier, asNobody)
		})
	}
}
