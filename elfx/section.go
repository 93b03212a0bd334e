package elfx

import (
	"bytes"
	"compress/zlib"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/btfkit/btfkit/internal/offheap"
	"github.com/klauspost/compress/zstd"
)

// FindDebug returns the section holding the debug section name (".debug_info"),
// also accepting the legacy compressed spelling ".zdebug_info". It returns
// nil if neither exists.
func (f *File) FindDebug(name string) *elf.Section {
	if s := f.Section(name); s != nil {
		return s
	}
	if strings.HasPrefix(name, ".debug_") {
		return f.Section(".z" + name[1:])
	}
	return nil
}

// Contents returns the section's contents: decompressed when the section is
// SHF_COMPRESSED or a legacy .zdebug_* section, and, when relocate is true
// and the file is ET_REL, with the relocations that target it applied.
//
// When no transformation is needed the result is a view of the file's
// bytes and must not be modified; otherwise it is a private copy.
func (f *File) Contents(s *elf.Section, relocate bool) ([]byte, error) {
	raw, err := f.Raw(s)
	if err != nil {
		return nil, err
	}
	data := raw
	copied := false
	switch {
	case s.Flags&elf.SHF_COMPRESSED != 0:
		data, err = f.decompressChdr(s.Name, raw)
		copied = true
	case strings.HasPrefix(s.Name, ".zdebug_"):
		data, err = decompressZdebug(s.Name, raw)
		copied = true
	}
	if err != nil {
		return nil, f.withPath(err)
	}
	if relocate && f.Type == elf.ET_REL {
		rels := f.relocationsFor(s)
		if len(rels) > 0 {
			if !copied {
				data = f.copyOf(s, data)
			}
			for _, r := range rels {
				if err := f.applyRelocations(s.Name, data, r); err != nil {
					return nil, f.withPath(err)
				}
			}
		}
	}
	return data, nil
}

// copyOf returns a private copy of the section's bytes raw (a view of the
// mapping): read from the file where it is open, which copies from the
// page cache without first faulting the mapping's pages in.
func (f *File) copyOf(s *elf.Section, raw []byte) []byte {
	var buf []byte
	if f.copiesOffHeap {
		var r *offheap.Region
		buf, r = offheap.Slice[byte](len(raw))
		if r != nil {
			f.copies = append(f.copies, r)
		}
		buf = buf[:len(raw)]
	}
	if f.fd != nil {
		if buf == nil {
			buf = make([]byte, len(raw))
		}
		if n, err := f.fd.ReadAt(buf, int64(s.Offset)); n == len(buf) && (err == nil || err == io.EOF) {
			return buf
		}
	}
	if buf != nil {
		copy(buf, raw)
		return buf
	}
	return append([]byte(nil), raw...)
}

// SectionData returns the contents of the section called name,
// decompressed when it is compressed and never relocated: a view of the
// file's bytes when no transformation is needed (not to be modified),
// else a private copy. A missing section is an *Error whose cause is
// ErrNoSection, an SHT_NOBITS section one saying it has no data.
func (f *File) SectionData(name string) ([]byte, error) {
	s, err := f.lookup(name)
	if err != nil {
		return nil, err
	}
	return f.Contents(s, false)
}

// lookup returns the section called name, which must hold bytes in the
// file.
func (f *File) lookup(name string) (*elf.Section, error) {
	s := f.Section(name)
	if s == nil {
		return nil, &Error{Path: f.Path, Section: name, Err: ErrNoSection}
	}
	if s.Type == elf.SHT_NOBITS {
		return nil, &Error{Path: f.Path, Section: name, Err: errors.New("has no data (SHT_NOBITS)")}
	}
	return s, nil
}

// ReadSection returns a private copy of the contents of section name of
// the ELF file at path (see SectionData). Only the file's headers and
// that section are read, so the .BTF of a vmlinux with debug info costs
// what the .BTF costs. Errors are *Error naming path.
func ReadSection(path, name string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.SectionCopy(name)
}

// SectionCopy is SectionData whose bytes stay valid after Close: a
// private copy where SectionData would return a view of the file's
// mapping (read from the file, not through the mapping), else the same
// bytes.
func (f *File) SectionCopy(name string) ([]byte, error) {
	s, err := f.lookup(name)
	if err != nil {
		return nil, err
	}
	data, err := f.Contents(s, false)
	if err != nil {
		return nil, err
	}
	if f.mapped && s.Flags&elf.SHF_COMPRESSED == 0 && !strings.HasPrefix(s.Name, ".zdebug_") {
		data = f.copyOf(s, data) // a view of the mapping, which Close unmaps
	}
	return data, nil
}

// DebugSection returns the contents of the named debug section (see
// FindDebug), decompressed and, for ET_REL files, relocated. A missing
// section gives nil, nil.
func (f *File) DebugSection(name string) ([]byte, error) {
	s := f.FindDebug(name)
	if s == nil {
		return nil, nil
	}
	return f.Contents(s, true)
}

// Merged returns the contents of all sections called name (or its .zdebug
// spelling), concatenated in section header order, each decompressed and,
// for ET_REL files, relocated as if a linker had laid them out one after
// the other. Object files have one debug section per COMDAT group
// (DWARF 4 .debug_types, DWARF 5 type units in .debug_info with their own
// .debug_str_offsets): merging them gives one section where references
// between groups, through relocations, stay right. With a single section
// it is the same as DebugSection. A missing section gives nil, nil.
func (f *File) Merged(name string) ([]byte, error) {
	secs := f.named(name)
	switch len(secs) {
	case 0:
		return nil, nil
	case 1:
		return f.Contents(secs[0], true)
	}
	var out []byte
	for _, s := range secs {
		b, err := f.Contents(s, true)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

func (f *File) named(name string) []*elf.Section {
	var secs []*elf.Section
	for _, s := range f.Sections {
		if s.Name == name || (strings.HasPrefix(name, ".debug_") && s.Name == ".z"+name[1:]) {
			secs = append(secs, s)
		}
	}
	return secs
}

// mergedBase gives, for ET_REL files, the offset at which each section
// that has same-named siblings starts within Merged's concatenation; the
// relocation code adds it to the values of symbols defined there.
func (f *File) mergedBase() map[int]uint64 {
	f.baseOnce.Do(func() {
		if f.Type != elf.ET_REL {
			return
		}
		count := map[string]int{}
		for _, s := range f.Sections {
			count[strings.Replace(s.Name, ".zdebug_", ".debug_", 1)]++
		}
		next := map[string]uint64{}
		for i, s := range f.Sections {
			n := strings.Replace(s.Name, ".zdebug_", ".debug_", 1)
			if count[n] < 2 || !strings.HasPrefix(n, ".debug_") {
				continue
			}
			if f.bases == nil {
				f.bases = map[int]uint64{}
			}
			f.bases[i] = next[n]
			next[n] += f.uncompressedSize(s)
		}
	})
	return f.bases
}

// uncompressedSize is the size of the section's contents once decompressed.
func (f *File) uncompressedSize(s *elf.Section) uint64 {
	if strings.HasPrefix(s.Name, ".zdebug_") {
		if raw, err := f.Raw(s); err == nil && len(raw) >= 12 && string(raw[:4]) == "ZLIB" {
			return binary.BigEndian.Uint64(raw[4:])
		}
	}
	return s.Size // debug/elf reports the uncompressed size of SHF_COMPRESSED sections
}

// The most a compressed stream can expand, per compressed byte: deflate
// (zlib) about 1032:1; zstd 32768:1 (an RLE block of 128 KiB in four
// bytes). A compressed section that declares more is lying about its
// size and is refused before anything is allocated.
const (
	maxRatio     = 1032
	maxZstdRatio = 32768
)

func (f *File) decompressChdr(name string, raw []byte) ([]byte, error) {
	var typ elf.CompressionType
	var size uint64
	var hdr int
	bo := f.ByteOrder
	if f.Class == elf.ELFCLASS64 {
		hdr = 24
		if len(raw) < hdr {
			return nil, sectionErr(name, 0, errors.New("compressed section shorter than its header"))
		}
		typ = elf.CompressionType(bo.Uint32(raw))
		size = bo.Uint64(raw[8:])
	} else {
		hdr = 12
		if len(raw) < hdr {
			return nil, sectionErr(name, 0, errors.New("compressed section shorter than its header"))
		}
		typ = elf.CompressionType(bo.Uint32(raw))
		size = uint64(bo.Uint32(raw[4:]))
	}
	return decompress(name, typ, raw[hdr:], size, uint64(hdr))
}

func decompressZdebug(name string, raw []byte) ([]byte, error) {
	if len(raw) < 12 || string(raw[:4]) != "ZLIB" {
		return nil, sectionErr(name, 0, errors.New("missing ZLIB header of .zdebug section"))
	}
	size := binary.BigEndian.Uint64(raw[4:])
	return decompress(name, elf.COMPRESS_ZLIB, raw[12:], size, 12)
}

func decompress(name string, typ elf.CompressionType, in []byte, size, off uint64) ([]byte, error) {
	ratio := uint64(maxRatio)
	if typ == elf.COMPRESS_ZSTD {
		ratio = maxZstdRatio
	}
	if limit := uint64(len(in))*ratio + 4096; size > limit || uint64(int(size)) != size || int(size) < 0 {
		return nil, sectionErr(name, 0, fmt.Errorf("declared uncompressed size 0x%x is more than %d compressed bytes can hold", size, len(in)))
	}
	// Memory is reserved up front only for what deflate could produce
	// from the input; beyond that, only as data actually arrives, and
	// never more than the declared size plus the byte that shows the
	// data is longer.
	hint := min(size, uint64(len(in))*maxRatio+4096)
	var r io.Reader
	switch typ {
	case elf.COMPRESS_ZLIB:
		zr, err := zlib.NewReader(bytes.NewReader(in))
		if err != nil {
			return nil, sectionErr(name, off, fmt.Errorf("zlib: %w", err))
		}
		r = zr
	case elf.COMPRESS_ZSTD:
		zr, err := zstd.NewReader(bytes.NewReader(in), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, sectionErr(name, off, fmt.Errorf("zstd: %w", err))
		}
		defer zr.Close()
		r = zr
	default:
		return nil, sectionErr(name, 0, fmt.Errorf("unknown compression type %d", typ))
	}
	buf := bytes.NewBuffer(make([]byte, 0, int(hint)))
	n, err := io.Copy(buf, io.LimitReader(r, int64(size)+1))
	if err != nil {
		return nil, sectionErr(name, off, fmt.Errorf("%s: %w", compressionName(typ), err))
	}
	if uint64(n) != size {
		return nil, sectionErr(name, off, fmt.Errorf("%s: decompressed %s bytes, header says %d", compressionName(typ), moreThan(n, size), size))
	}
	return buf.Bytes(), nil
}

func compressionName(typ elf.CompressionType) string {
	if typ == elf.COMPRESS_ZSTD {
		return "zstd"
	}
	return "zlib"
}

// moreThan spells n, decompressed bytes read up to size+1: "more than
// size" when the data went on past the declared size.
func moreThan(n int64, size uint64) string {
	if uint64(n) > size {
		return fmt.Sprintf("more than %d", size)
	}
	return fmt.Sprint(n)
}
