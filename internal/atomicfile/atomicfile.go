package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// DefaultPerm is the mode of a new file when Options.Perm is zero.
const DefaultPerm fs.FileMode = 0o644

// Options controls Write.
type Options struct {
	// Perm is the mode of a file that does not exist yet (0 means
	// DefaultPerm), set exactly, whatever the umask. An existing file
	// keeps its mode.
	Perm fs.FileMode
	// IfChanged leaves a regular file that already holds exactly the new
	// bytes alone (contents, mtime, inode), and Write reports that it did
	// not write.
	IfChanged bool
}

// Write replaces the contents of the file at path with data and reports
// whether it wrote (false only with IfChanged and unchanged contents).
//
// A regular file (or a new one) is replaced atomically: data goes to a
// temporary file in the same directory, which is synced, given the old
// file's mode (or o.Perm) and renamed over it. A symbolic link is followed
// and its target replaced; the link stays. Anything else, such as a
// character device, a FIFO, or a /proc/self/fd link like /dev/stdout (even
// when standard output is a regular file: the shell opened it and holds it),
// is opened and written through. On error, a regular target is left as it
// was and no temporary file remains. Errors are *Error, naming path.
func Write(path string, data []byte, o Options) (changed bool, err error) {
	target, through, err := resolve(path)
	if err != nil {
		return false, err
	}
	if through {
		return true, writeThrough(path, data)
	}
	if o.IfChanged && sameContents(target, data) {
		return false, nil
	}
	perm := o.Perm
	if perm == 0 {
		perm = DefaultPerm
	}
	t, err := create(path, target, perm)
	if err != nil {
		return false, err
	}
	defer t.Abort()
	if _, err := t.File.Write(data); err != nil {
		return false, t.fail("write", err)
	}
	if err := t.Commit(nil); err != nil {
		return false, err
	}
	return true, nil
}

// sameContents reports whether the regular file target holds exactly data.
func sameContents(target string, data []byte) bool {
	st, err := os.Stat(target)
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(data)) {
		return false
	}
	old, err := os.ReadFile(target)
	return err == nil && bytes.Equal(old, data)
}

// writeThrough writes data to an existing file that is not replaced: a
// device, a FIFO, a /proc link.
func writeThrough(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return pathError("open", path, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return pathError("write", path, err)
	}
	return nil
}

// maxLinks bounds the symbolic links resolve follows, as the kernel does
// (ELOOP after 40).
const maxLinks = 40

// resolve finds the file a write to path replaces: path itself, or the
// end of its chain of symbolic links. through is set when it must not be
// replaced but written through: it exists and is not a regular file, or
// the chain passes through /proc (the /proc/self/fd links /dev/stdout
// and /dev/fd/N lead to, whose targets are the open files of a process).
// A directory is an error.
func resolve(path string) (target string, through bool, err error) {
	cur := path
	for i := 0; ; i++ {
		st, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return cur, false, nil // a new file
		case err != nil:
			return "", false, pathError("stat", path, err)
		case st.Mode().IsRegular():
			return cur, false, nil
		case st.IsDir():
			return "", false, pathError("", path, errors.New("is a directory"))
		case st.Mode()&fs.ModeSymlink == 0:
			return cur, true, nil // a device, FIFO or socket
		}
		if i == maxLinks {
			return "", false, pathError("", path, errors.New("too many levels of symbolic links"))
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(cur)); err != nil || inProc(dir) {
			return cur, true, nil
		}
		link, err := os.Readlink(cur)
		if err != nil {
			return "", false, pathError("readlink", path, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(cur), link)
		}
		cur = link
	}
}

func inProc(dir string) bool { return dir == "/proc" || strings.HasPrefix(dir, "/proc/") }

// Temp is the new contents of a file being replaced: a temporary file
// beside it, renamed over it by Commit.
type Temp struct {
	*os.File
	path   string      // the path the caller named, for errors
	target string      // the file Commit replaces
	mode   fs.FileMode // the mode the new file gets
	done   bool
}

// Create starts replacing the regular file at path (following symbolic
// links to their target) or creating it when it does not exist: it
// returns an empty temporary file in the target's directory for the new
// contents. The new file will have the old one's mode, or perm for a new
// file. A path that is not a regular file is an error (see Write for
// writing through to one). The caller writes the file and calls Commit,
// or Abort to give up; `defer t.Abort()` is safe after Commit.
func Create(path string, perm fs.FileMode) (*Temp, error) {
	target, through, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if through {
		return nil, pathError("", path, errors.New("not a regular file, cannot be replaced"))
	}
	return create(path, target, perm)
}

func create(path, target string, perm fs.FileMode) (*Temp, error) {
	if st, err := os.Stat(target); err == nil {
		perm = st.Mode().Perm()
		// A file the process may not write is not replaced either,
		// as cp, gcc -o and pahole -J leave it: the rename would
		// succeed where writing would not.
		if err := unix.Access(target, unix.W_OK); err != nil {
			return nil, pathError("", path, fmt.Errorf("not writable: %w", err))
		}
	}
	// The file is made and registered under live's lock, so that Stop
	// either finds it or comes first and no file is made.
	live.Lock()
	defer live.Unlock()
	if live.stopped {
		return nil, pathError("", path, ErrStopped)
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".btfkit-*")
	if err != nil {
		return nil, pathError("creating a temporary file", path, err)
	}
	t := &Temp{File: f, path: path, target: target, mode: perm.Perm()}
	live.temps[t] = struct{}{}
	return t, nil
}

// live holds the temporary files of the process not yet renamed or
// removed, for Stop.
var live = liveTemps{temps: map[*Temp]struct{}{}}

type liveTemps struct {
	sync.Mutex
	temps   map[*Temp]struct{}
	stopped bool
}

// ErrStopped is the cause of the error of a Create or Commit after Stop.
var ErrStopped = errors.New("stopped (interrupted)")

func (l *liveTemps) remove(t *Temp) {
	l.Lock()
	delete(l.temps, t)
	l.Unlock()
}

// Stop removes every temporary file of the process that Commit has not
// renamed yet, and makes every later Create and Commit fail with
// ErrStopped: what a command does when a signal (SIGINT, SIGTERM) stops
// it, before it exits. A Commit that renamed before Stop has written its
// file whole; none renames after it. Stop is safe to call from any
// goroutine and more than once.
func Stop() {
	live.Lock()
	defer live.Unlock()
	live.stopped = true
	for t := range live.temps {
		t.File.Close()
		os.Remove(t.File.Name())
		delete(live.temps, t)
	}
}

// Target returns the file Commit replaces: the path given to Create with
// symbolic links followed.
func (t *Temp) Target() string { return t.target }

// Commit syncs the temporary file, gives it the mode, closes it, runs
// check on it (when not nil; check gets the temporary file's name and may
// read it) and renames it over the target. On any error the temporary file
// is removed and the target is left as it was; an error of check is
// returned as it is, others are *Error naming the path given to Create.
func (t *Temp) Commit(check func(tmp string) error) error {
	if t.done {
		return pathError("", t.path, errors.New("Commit after Commit or Abort"))
	}
	defer t.Abort()
	live.Lock()
	stopped := live.stopped
	live.Unlock()
	if stopped {
		return t.fail("", ErrStopped)
	}
	if err := t.File.Chmod(t.mode); err != nil {
		return t.fail("chmod", err)
	}
	if err := t.File.Sync(); err != nil {
		return t.fail("sync", err)
	}
	if err := t.File.Close(); err != nil {
		return t.fail("close", err)
	}
	if check != nil {
		if err := check(t.File.Name()); err != nil {
			return err
		}
	}
	// The rename and Stop exclude each other: after Stop no temporary
	// file becomes a target.
	live.Lock()
	defer live.Unlock()
	if live.stopped {
		return t.fail("", ErrStopped)
	}
	if err := os.Rename(t.File.Name(), t.target); err != nil {
		return t.fail("rename", err)
	}
	t.done = true
	delete(live.temps, t)
	return nil
}

// Abort removes the temporary file, unless Commit has renamed it.
func (t *Temp) Abort() {
	if t.done {
		return
	}
	t.done = true
	t.File.Close()
	os.Remove(t.File.Name())
	live.remove(t)
}

// fail is an error of step op on the temporary file, naming the path the
// caller gave rather than the temporary file.
func (t *Temp) fail(op string, err error) error { return pathError(op, t.path, err) }

// Error is a failure of one step of writing a file.
type Error struct {
	Path string // the path the caller gave
	Op   string // the step: "write", "rename", ...; "" for a refusal
	Err  error  // the cause
}

func (e *Error) Error() string {
	if e.Op == "" {
		return e.Path + ": " + e.Err.Error()
	}
	return e.Path + ": " + e.Op + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// pathError is an *Error for path whose cause is err's own cause, so that
// an error about a temporary or resolved file names the path the caller
// gave, once.
func pathError(op, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &Error{Path: path, Op: op, Err: err}
}
