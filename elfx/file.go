package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/btfkit/btfkit/internal/offheap"
	"golang.org/x/sys/unix"
)

// File is an ELF file whose bytes are held in memory: a read-only private
// mapping of the file, or, for a compressed file, its decompressed bytes.
type File struct {
	*elf.File        // headers, parsed by debug/elf over the file's bytes
	Path      string // the path given to Open, or "" for NewFile
	data      []byte // the whole file
	mapped    bool
	fd        *os.File // the file, kept open for ReadAt (mapped files only)

	baseOnce sync.Once
	bases    map[int]uint64

	// copiesOffHeap: Contents makes its relocated copies outside the Go
	// heap, and Close frees them (CopiesUntilClose).
	copiesOffHeap bool
	copies        []*offheap.Region
}

// CopiesUntilClose makes the private copies Contents makes from now on
// (the relocated debug sections of a module or object file) live outside
// the Go heap until Close frees them, like the mapping: an encoder that
// drops everything it read at Close (it has copied what it keeps) then
// neither counts them toward the collector's heap goal nor waits for a
// collection to give them back (a module's .debug_info is up to 26 MB).
// Nothing may use such a copy after Close.
func (f *File) CopiesUntilClose() { f.copiesOffHeap = true }

// Open opens the ELF file at path: a plain ELF file is mapped read-only; a
// compressed one (xz, zstd or gzip, as kernel modules are shipped:
// .ko.xz, .ko.zst, .ko.gz; recognised by content, not name) is
// decompressed into memory. Its ELF headers are parsed. A plain file stays
// open too, for sections copied out of it (Contents reads those instead of
// faulting the mapping's pages in). Close releases it; byte slices and
// strings obtained from the file's sections must not be used after Close.
//
// Errors are *Error naming path; a file that is neither ELF nor a
// compressed ELF gives one whose cause is ErrNotELF.
func Open(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Err: causeOf(err)}
	}
	keep := false
	defer func() {
		if !keep {
			fd.Close()
		}
	}()
	var head [6]byte
	n, err := fd.ReadAt(head[:], 0)
	if err != nil && err != io.EOF {
		return nil, &Error{Path: path, Err: causeOf(err)}
	}
	if c := compressionOf(head[:n]); c != nil {
		data, err := c.decompress(fd)
		if err != nil {
			return nil, &Error{Path: path, Err: fmt.Errorf("decompressing (%s): %w", c.name, err)}
		}
		f, err := newFile(data, path)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	if !isELF(head[:n]) {
		return nil, &Error{Path: path, Err: notELF(n)}
	}
	data, err := mapFile(fd, false)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	f, err := newFile(data, path)
	if err != nil {
		unix.Munmap(data)
		return nil, err
	}
	f.mapped = true
	f.fd = fd
	keep = true
	return f, nil
}

// NewFile parses an ELF image already in memory. The File keeps data and
// returns views of it; data must not be modified afterwards. Errors are
// *Error without a path.
func NewFile(data []byte) (*File, error) { return newFile(data, "") }

func newFile(data []byte, path string) (f *File, err error) {
	if !isELF(data) {
		return nil, &Error{Path: path, Err: notELF(len(data))}
	}
	if err := checkHeaders(data); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	defer func() {
		// debug/elf is not hardened against every malformed header.
		if r := recover(); r != nil {
			f, err = nil, &Error{Path: path, Err: fmt.Errorf("malformed ELF: %v", r)}
		}
	}()
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("%w (%v)", ErrTruncated, err)
		}
		return nil, &Error{Path: path, Err: err}
	}
	return &File{File: ef, Path: path, data: data}, nil
}

// notELF is ErrNotELF for a file of n bytes (at least the start read).
func notELF(n int) error {
	if n == 0 {
		return fmt.Errorf("%w: empty file, no ELF magic at offset 0x0", ErrNotELF)
	}
	return fmt.Errorf("%w: no ELF magic at offset 0x0", ErrNotELF)
}

// checkHeaders checks that the ELF header, the section header table and
// the program header table of an image that starts with the ELF magic
// lie within it, so that a file cut short gets an error saying where,
// rather than debug/elf's EOF.
func checkHeaders(data []byte) error {
	if len(data) < 16 {
		return fmt.Errorf("%w: the ELF header is cut short at offset 0x%x", ErrTruncated, len(data))
	}
	var hdrLen int
	switch elf.Class(data[4]) {
	case elf.ELFCLASS32:
		hdrLen = 52
	case elf.ELFCLASS64:
		hdrLen = 64
	default:
		return fmt.Errorf("%w: unknown ELF class %d at offset 0x4", ErrTruncated, data[4])
	}
	if len(data) < hdrLen {
		return fmt.Errorf("%w: the ELF header (0x%x bytes) is cut short at offset 0x%x", ErrTruncated, hdrLen, len(data))
	}
	var bo binary.ByteOrder
	switch elf.Data(data[5]) {
	case elf.ELFDATA2LSB:
		bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		bo = binary.BigEndian
	default:
		return fmt.Errorf("%w: unknown ELF data encoding %d at offset 0x5", ErrTruncated, data[5])
	}
	var phoff, shoff uint64
	var phentsize, phnum, shentsize, shnum uint16
	if hdrLen == 64 {
		phoff, shoff = bo.Uint64(data[32:]), bo.Uint64(data[40:])
		phentsize, phnum, shentsize, shnum = bo.Uint16(data[54:]), bo.Uint16(data[56:]), bo.Uint16(data[58:]), bo.Uint16(data[60:])
	} else {
		phoff, shoff = uint64(bo.Uint32(data[28:])), uint64(bo.Uint32(data[32:]))
		phentsize, phnum, shentsize, shnum = bo.Uint16(data[42:]), bo.Uint16(data[44:]), bo.Uint16(data[46:]), bo.Uint16(data[48:])
	}
	size := uint64(len(data))
	table := func(what string, off uint64, n, entsize uint16) error {
		if off == 0 {
			return nil
		}
		if n == 0 { // extended numbering: the count is in the first entry
			n = 1
		}
		end := off + uint64(n)*uint64(entsize)
		if off > size || end > size {
			return fmt.Errorf("%w: the %s table [0x%x,0x%x) runs past the end of the file (0x%x bytes)", ErrTruncated, what, off, end, size)
		}
		return nil
	}
	if err := table("section header", shoff, shnum, shentsize); err != nil {
		return err
	}
	return table("program header", phoff, phnum, phentsize)
}

// isELF reports whether b starts with the ELF magic.
func isELF(b []byte) bool { return len(b) >= 4 && string(b[:4]) == elf.ELFMAG }

// IsELF reports whether bytes start with the ELF magic (an image read
// whole, from a pipe, before NewFile).
func IsELF(b []byte) bool { return isELF(b) }

// causeOf strips an *fs.PathError (whose path an *Error states anyway).
func causeOf(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// mapFile maps the whole of the open file fd read-only. populate faults
// every page in at once, for callers that read all of it.
func mapFile(fd *os.File, populate bool) ([]byte, error) {
	st, err := fd.Stat()
	if err != nil {
		return nil, causeOf(err)
	}
	size := st.Size()
	if size <= 0 {
		return nil, errors.New("empty file or not a regular file, cannot map it")
	}
	if int64(int(size)) != size {
		return nil, errors.New("file too large to map")
	}
	flags := unix.MAP_PRIVATE
	if populate {
		flags |= unix.MAP_POPULATE
	}
	data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, flags)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	return data, nil
}

// Close releases the mapping. It is safe to call more than once.
func (f *File) Close() error {
	if f.fd != nil {
		f.fd.Close()
		f.fd = nil
	}
	for _, r := range f.copies {
		r.Free()
	}
	f.copies = nil
	if f.mapped && f.data != nil {
		d := f.data
		f.data = nil
		return unix.Munmap(d)
	}
	f.data = nil
	return nil
}

// Release tells the system that the bytes of b, a view of this file's
// mapping (a section's bytes or part of them, as the section accessors
// return them), are not needed for now: the pages wholly inside b leave
// the process's resident memory. Reading them again is still correct (the
// pages come back from the file, unchanged: the mapping is read-only), so
// a reader may release what it has finished with even if something might
// look at it again. Anything else (a slice of another array, a
// decompressed or relocated copy, a file that is not mapped) is left
// alone. A walk over a 164 MB .debug_info would otherwise keep all of it
// resident until Close.
func (f *File) Release(b []byte) {
	if !f.mapped || len(b) == 0 || len(f.data) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(f.data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p < start || p+uintptr(len(b)) > start+uintptr(len(f.data)) {
		return
	}
	page := uintptr(os.Getpagesize())
	lo := (p - start + page - 1) &^ (page - 1)
	hi := (p - start + uintptr(len(b))) &^ (page - 1)
	if hi <= lo {
		return
	}
	unix.Madvise(f.data[lo:hi], unix.MADV_DONTNEED)
}

// ReadView copies into p the bytes of view from offset off on, as many
// as both have room for, and returns how many it copied. view is a
// section's bytes as the section accessors return them (or part of
// them). When view lies in the mapping of a mapped file, the bytes are
// read from the file (pread) instead of the mapping, so that the pages
// they are on do not become resident: for a reader that looks at a few
// bytes here and there of a large section it does not otherwise read
// (the unit headers of a vmlinux's .debug_info, one every 75 KB, each
// of which would fault in 64 KiB around it). Anything else (a
// decompressed or relocated copy, a file that is not mapped) is copied
// from memory.
func (f *File) ReadView(p, view []byte, off int) int {
	if off < 0 || off >= len(view) {
		return 0
	}
	n := min(len(p), len(view)-off)
	if f.mapped && f.fd != nil && len(f.data) > 0 {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(f.data)))
		q := uintptr(unsafe.Pointer(unsafe.SliceData(view))) + uintptr(off)
		if q >= start && q+uintptr(n) <= start+uintptr(len(f.data)) {
			if m, err := f.fd.ReadAt(p[:n], int64(q-start)); m == n && (err == nil || err == io.EOF) {
				return n
			}
			// The file changed under the mapping, or cannot be read:
			// the mapping has what the reader would see otherwise.
		}
	}
	return copy(p[:n], view[off:])
}

// Bytes returns the whole file image (decompressed, for a compressed file).
func (f *File) Bytes() []byte { return f.data }

// Raw returns the bytes a section occupies in the file (still compressed if
// the section is compressed). SHT_NOBITS sections have no bytes.
func (f *File) Raw(s *elf.Section) ([]byte, error) {
	if s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	end := s.Offset + s.FileSize
	if end < s.Offset || end > uint64(len(f.data)) {
		return nil, &Error{Path: f.Path, Section: s.Name, Err: fmt.Errorf("%w: file offset 0x%x size 0x%x runs past the end of the file (0x%x bytes)", ErrTruncated, s.Offset, s.FileSize, len(f.data))}
	}
	return f.data[s.Offset:end:end], nil
}

// Mapping is a whole file mapped read-only, for readers of formats other
// than ELF (a raw BTF file) that want its bytes without a heap copy.
type Mapping struct {
	data []byte
}

// Map maps the regular file at path read-only and faults its pages in.
// Close unmaps it; the bytes must not be used afterwards. Errors are
// *Error naming path.
func Map(path string) (*Mapping, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Err: causeOf(err)}
	}
	defer fd.Close()
	data, err := mapFile(fd, true)
	if err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	return &Mapping{data: data}, nil
}

// Bytes returns the mapped bytes.
func (m *Mapping) Bytes() []byte { return m.data }

// Close unmaps the file. It is safe to call more than once.
func (m *Mapping) Close() error {
	if m.data == nil {
		return nil
	}
	d := m.data
	m.data = nil
	return unix.Munmap(d)
}
