package elfx

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// File is an ELF file whose bytes are held in memory, normally by a
// read-only private mapping of the file.
type File struct {
	*elf.File        // headers, parsed by debug/elf over Data
	Path      string // the path given to Open, or "" for NewFile
	data      []byte // the whole file
	mapped    bool
	fd        *os.File // the file, kept open for ReadAt (Open only)

	baseOnce sync.Once
	bases    map[int]uint64
}

// Open maps the file at path read-only and parses its ELF headers. The
// file stays open too, for sections copied out of it (Contents reads those
// instead of faulting the mapping's pages in). Close unmaps and closes it;
// byte slices and strings obtained from the file's sections must not be
// used after Close.
func Open(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	keep := false
	defer func() {
		if !keep {
			fd.Close()
		}
	}()
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size <= 0 {
		return nil, fmt.Errorf("%s: empty file, not ELF", path)
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%s: file too large to map", path)
	}
	data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("%s: mmap: %w", path, err)
	}
	f, err := NewFile(data)
	if err != nil {
		unix.Munmap(data)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	f.mapped = true
	f.fd = fd
	keep = true
	return f, nil
}

// NewFile parses an ELF image already in memory. The File keeps data and
// returns views of it; data must not be modified afterwards.
func NewFile(data []byte) (f *File, err error) {
	defer func() {
		// debug/elf is not hardened against every malformed header.
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("malformed ELF: %v", r)
		}
	}()
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return &File{File: ef, data: data}, nil
}

// Close releases the mapping. It is safe to call more than once.
func (f *File) Close() error {
	if f.fd != nil {
		f.fd.Close()
		f.fd = nil
	}
	if f.mapped && f.data != nil {
		d := f.data
		f.data = nil
		return unix.Munmap(d)
	}
	f.data = nil
	return nil
}

// Bytes returns the whole file image.
func (f *File) Bytes() []byte { return f.data }

// Raw returns the bytes a section occupies in the file (still compressed if
// the section is compressed). SHT_NOBITS sections have no bytes.
func (f *File) Raw(s *elf.Section) ([]byte, error) {
	if s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(len(f.data)) {
		return nil, fmt.Errorf("section %s: offset 0x%x size 0x%x beyond end of file (0x%x)", s.Name, s.Offset, s.FileSize, len(f.data))
	}
	return f.data[s.Offset:end:end], nil
}
