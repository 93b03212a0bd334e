package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// noTemps fails when dir holds anything but the named files.
func noTemps(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %q, want %q (a temporary file left behind?)", dir, got, want)
	}
}

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t).Ino
}

func TestWriteNewAndExisting(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)

	p := filepath.Join(dir, "out.btf")
	if changed, err := Write(p, []byte("one"), Options{}); err != nil || !changed {
		t.Fatalf("Write new: %v, %v", changed, err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != DefaultPerm {
		t.Errorf("new file has mode %v, want %v whatever the umask", st.Mode().Perm(), DefaultPerm)
	}
	if _, err := Write(filepath.Join(dir, "h"), []byte("x"), Options{Perm: 0o640}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "h")); st.Mode().Perm() != 0o640 {
		t.Errorf("new file with Perm 0640 has mode %v", st.Mode().Perm())
	}

	// An existing file keeps its mode (not Perm), gets a new inode.
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	ino := inode(t, p)
	if _, err := Write(p, []byte("two, longer"), Options{Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two, longer" {
		t.Errorf("contents %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after replacing a 0600 file, want it kept", st.Mode().Perm())
	}
	if inode(t, p) == ino {
		t.Errorf("the file was rewritten in place, not replaced by a rename")
	}
	noTemps(t, dir, "h", "out.btf")
}

func TestWriteIfChanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "vmlinux.h")
	if changed, err := Write(p, []byte("int a;\n"), Options{IfChanged: true}); err != nil || !changed {
		t.Fatalf("first write: %v, %v", changed, err)
	}
	ino := inode(t, p)
	st0, _ := os.Stat(p)
	if changed, err := Write(p, []byte("int a;\n"), Options{IfChanged: true}); err != nil || changed {
		t.Errorf("same bytes: changed %v, %v; want the file left alone", changed, err)
	}
	if st, _ := os.Stat(p); inode(t, p) != ino || !st.ModTime().Equal(st0.ModTime()) {
		t.Errorf("the unchanged file was touched")
	}
	if changed, err := Write(p, []byte("int b;\n"), Options{IfChanged: true}); err != nil || !changed {
		t.Errorf("new bytes: changed %v, %v", changed, err)
	}
	if changed, err := Write(p, []byte("int b;\n"), Options{}); err != nil || !changed {
		t.Errorf("without IfChanged: changed %v, %v; want written", changed, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "int b;\n" {
		t.Errorf("contents %q", b)
	}
}

// TestWriteFollowsLinks: a symbolic link to a regular file has its target
// replaced (mode kept) and stays a link; a dangling link creates its target.
func TestWriteFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("old"), 0o640)
	link := filepath.Join(dir, "link")
	os.Symlink("target", link)
	if _, err := Write(link, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q", b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640 kept", st.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("made", dangling)
	if _, err := Write(dangling, []byte("x"), Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made")); string(b) != "x" {
		t.Errorf("the dangling link's target holds %q", b)
	}
	noTemps(t, dir, "dangling", "link", "made", "target")
}

// TestWriteThrough: a FIFO and a /proc/self/fd link (what /dev/stdout is)
// are written to, not replaced, whether the descriptor is a pipe or a
// regular file.
func TestWriteThrough(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("btf "), 50000) // more than a pipe buffer

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	if _, err := Write(fifo, data, Options{IfChanged: true}); err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, data) {
		t.Errorf("read %d bytes from the FIFO, want %d", len(b), len(data))
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		b, _ := readAll(r)
		got <- b
	}()
	if _, err := Write(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), data, Options{}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b := <-got; !bytes.Equal(b, data) {
		t.Errorf("read %d bytes from the pipe, want %d", len(b), len(data))
	}

	// A regular file open as a descriptor: written through its link, so
	// the holder of the descriptor sees the bytes (a rename would leave it
	// the old inode).
	reg := filepath.Join(dir, "stdout.txt")
	f, err := os.Create(reg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ino := inode(t, reg)
	if _, err := Write(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), data, Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(reg); !bytes.Equal(b, data) || inode(t, reg) != ino {
		t.Errorf("the file behind the descriptor holds %d bytes (inode kept: %v), want %d", len(b), inode(t, reg) == ino, len(data))
	}
	noTemps(t, dir, "fifo", "stdout.txt")
}

func readAll(r *os.File) ([]byte, error) {
	defer r.Close()
	var buf bytes.Buffer
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

func TestCreateCommitCheckFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "vmlinux")
	os.WriteFile(p, []byte("original"), 0o755)
	tmp, err := Create(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	tmp.Write([]byte("edited"))
	injected := errors.New("injected failure")
	var checked string
	err = tmp.Commit(func(name string) error {
		b, _ := os.ReadFile(name)
		checked = string(b)
		return injected
	})
	if !errors.Is(err, injected) {
		t.Errorf("Commit: %v, want the check's error", err)
	}
	if checked != "edited" {
		t.Errorf("check read %q, want the new contents", checked)
	}
	if b, _ := os.ReadFile(p); string(b) != "original" {
		t.Errorf("the file holds %q after a failed commit", b)
	}
	noTemps(t, dir, "vmlinux")

	// Commit with a passing check keeps the mode; Abort after it is harmless.
	tmp, err = Create(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Abort()
	tmp.Write([]byte("edited"))
	if err := tmp.Commit(func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	tmp.Abort()
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755 kept", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(p); string(b) != "edited" {
		t.Errorf("the file holds %q", b)
	}
	noTemps(t, dir, "vmlinux")
}

func TestCreateRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := Create(dir, 0o644); err == nil {
		t.Errorf("Create of a directory: no error")
	}
	if _, err := Create("/dev/null", 0o644); err == nil {
		t.Errorf("Create of /dev/null: no error")
	}
	if _, err := Write(dir, []byte("x"), Options{}); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Write to a directory: %v, want an error naming it", err)
	}
	noTemps(t, dir)
}

// TestWriteFailureLeavesOldFile: a write that fails half way (the file
// size limit, RLIMIT_FSIZE, in a child process) leaves the old file and no
// temporary file, and the error names the path.
func TestWriteFailureLeavesOldFile(t *testing.T) {
	if p := os.Getenv("ATOMICFILE_TEST_CHILD"); p != "" {
		lim := syscall.Rlimit{Cur: 4096, Max: 4096}
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
			fmt.Println("setrlimit:", err)
			os.Exit(3)
		}
		_, err := Write(p, make([]byte, 1<<20), Options{})
		fmt.Println(err)
		if err == nil {
			os.Exit(0)
		}
		os.Exit(1)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "out.btf")
	os.WriteFile(p, []byte("earlier output"), 0o600)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFailureLeavesOldFile$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_CHILD="+p)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), p+": write: file too large") {
		t.Errorf("child's error %q does not name the path and the cause", out)
	}
	if b, _ := os.ReadFile(p); string(b) != "earlier output" {
		t.Errorf("the file holds %d bytes after a failed write", len(b))
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	noTemps(t, dir, "out.btf")
}

// TestStop: Stop (what a command does on SIGINT) removes the temporary
// files not yet renamed, a Commit after it renames nothing, a Create after
// it fails; a file committed before it stays. In a child process, since
// Stop is for good.
func TestStop(t *testing.T) {
	if dir := os.Getenv("ATOMICFILE_TEST_STOP"); dir != "" {
		done, err := Create(filepath.Join(dir, "done.btf"), 0o644)
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		done.WriteString("complete")
		if err := done.Commit(nil); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		open, err := Create(filepath.Join(dir, "open.btf"), 0o644)
		if err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		open.WriteString("half")
		Stop()
		if err := open.Commit(nil); !errors.Is(err, ErrStopped) {
			fmt.Println("Commit after Stop:", err)
			os.Exit(4)
		}
		if _, err := Write(filepath.Join(dir, "late.btf"), []byte("x"), Options{}); !errors.Is(err, ErrStopped) {
			fmt.Println("Write after Stop:", err)
			os.Exit(5)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "open.btf"), []byte("earlier output"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestStop$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_STOP="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "done.btf")); string(b) != "complete" {
		t.Errorf("a file committed before Stop holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "open.btf")); string(b) != "earlier output" {
		t.Errorf("the file being replaced at Stop holds %q, want the earlier output", b)
	}
	noTemps(t, dir, "done.btf", "open.btf") // and no late.btf
}
