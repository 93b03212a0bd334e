package elfx

import (
	"errors"
	"fmt"
)

// Error is an error about an ELF file: which file, which section (if the
// problem is in one), at which offset within it, and what is wrong. Every
// error elfx returns for a file it opened by path is an *Error with Path
// set, so callers neither add the path again nor look for it in the
// message: errors.As finds the file, errors.Is the cause (ErrNotELF,
// ErrNoSection, fs.ErrNotExist, ...).
type Error struct {
	Path    string // the file; "" for an image given as bytes (NewFile)
	Section string // the section; "" for the file as a whole
	Offset  uint64 // offset within Section where the problem was found (0: at its start or unknown)
	Err     error  // the cause

	at bool // Offset is known, even when 0 (errors made by sectionErr)
}

func (e *Error) Error() string {
	s := ""
	if e.Path != "" {
		s = e.Path + ": "
	}
	if e.Section != "" {
		s += "section " + e.Section
		if e.Offset != 0 || e.at {
			s += fmt.Sprintf("+0x%x", e.Offset)
		}
		s += ": "
	}
	return s + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

var (
	// ErrNotELF is the cause of an error for a file that is not ELF (nor
	// a compressed ELF file that Open would undo).
	ErrNotELF = errors.New("not an ELF file")
	// ErrNoSection is the cause of an error for a section the file lacks.
	ErrNoSection = errors.New("no such section")
	// ErrTruncated is the cause of an error for an ELF file whose headers
	// end early or point past its end.
	ErrTruncated = errors.New("truncated or malformed ELF file")
)

// NamingFile returns err as an error that names the file at path: err
// itself when it is an *Error that already does, else an *Error with Path
// set around it (keeping its section and offset when it is an *Error of
// an image without a path). For callers that add the file to errors of
// their own steps after opening it, once.
func NamingFile(path string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Path == path {
			return err
		}
		if e.Path == "" && e == err {
			c := *e
			c.Path = path
			return &c
		}
	}
	return &Error{Path: path, Err: err}
}

// sectionErr is an error about section name at offset off in it (0: its
// start), of an image without a path yet (File.withPath fills it in).
func sectionErr(name string, off uint64, err error) *Error {
	return &Error{Section: name, Offset: off, Err: err, at: true}
}

// withPath returns err naming f's file: the path is set on elfx's own errors
// that lack it and added around any other.
func (f *File) withPath(err error) error {
	if err == nil || f.Path == "" {
		return err
	}
	return NamingFile(f.Path, err)
}
