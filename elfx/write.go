package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/btfkit/btfkit/internal/atomicfile"
)

// Section is a section's name and the contents WriteSections gives it.
type Section struct {
	Name string
	Data []byte
}

// WriteSection sets the contents of the section called name in the ELF
// file at path to data, as `pahole -J` does with .BTF; see WriteSections.
func WriteSection(path, name string, data []byte) error {
	return WriteSections(path, []Section{{name, data}}, nil)
}

// WriteSections sets the contents of sections of the ELF file at path, in
// order: an existing section is replaced, a missing one is added
// (SHT_PROGBITS, no flags, 4-byte alignment: the section `objcopy
// --add-section` makes, aligned for BTF's 32-bit words).
//
// The file is rewritten through btfkit's one atomic writer
// (internal/atomicfile): a temporary copy in the same directory, synced and
// renamed over the original only when everything has been written and
// check (when not nil) has accepted the temporary file by name, so on any
// error the original file is left untouched and the temporary file is
// removed. Its permission bits are kept; a symbolic link is followed and its
// target replaced.
//
// The rest of the file keeps its layout: no section, segment or symbol
// moves, no section is renumbered, program headers are not touched. New
// bytes (contents, a grown section name table, a grown section header
// table) are appended at the end of the file, and the headers that point to
// them are updated. A section that is not loaded is rewritten where it is
// when the new contents fit, else moved to the end.
//
// A loaded section (SHF_ALLOC in an executable or shared object, such as
// the .BTF of a vmlinux) sits at an address fixed by the link: the sections
// after it in its PT_LOAD segment follow at fixed addresses, and the code
// holds its bounds (the vmlinux's __start_BTF and __stop_BTF, as absolute
// relocations in .text) and .BTF_ids holds type IDs of the BTF loaded with
// it. Its size cannot change without linking again. So:
//
//   - New contents of the same size are written in place.
//   - Otherwise, for read-only data (SHT_PROGBITS, SHF_ALLOC without
//     SHF_WRITE, SHF_EXECINSTR or SHF_TLS), the loaded section stays as it
//     is, bytes, address, segment and index (so its symbols still point into
//     it), renamed to name + ".loaded"; a new unloaded section called name
//     (the old flags without SHF_ALLOC, address 0) with the new contents is
//     appended. Readers that look for the section by name (libbpf's
//     btf__parse_elf, bpftool, objcopy --dump-section, debug/elf) get the new
//     contents; the loaded image (the segments' bytes, what objcopy -O binary
//     makes of the file) is byte for byte what it was and consistent with
//     itself.
//   - Anything else (code, writable data, SHT_NOBITS, a section in a
//     relocatable object, a file that already has a section called
//     name + ".loaded") is refused with an error naming the file and section.
//
// The tools that write .BTF into an ELF file do otherwise, and neither
// leaves a vmlinux that already has a loaded .BTF intact (measured on
// Debian's 6.1 vmlinux, whose .BTF is loaded): pahole (1.24 and upstream
// 1.31) replaces an existing section's data through libelf's elf_update
// without ELF_F_LAYOUT, so libelf lays out every section anew while the
// program headers stay: every loaded section leaves its segment, and
// objcopy then reports that they cannot be allocated in their segments.
// GNU objcopy --update-section keeps a smaller section at its place with a
// smaller size, leaving zeros up to __stop_BTF in the loaded image (the
// kernel sizes its BTF by __stop_BTF - __start_BTF and rejects trailing
// bytes); with a bigger one it moves the later sections' file offsets and
// grows the first PT_LOAD segment over the addresses of the next one.
func WriteSections(path string, secs []Section, check func(tmp string) error) error {
	in, err := os.Open(path)
	if err != nil {
		return &Error{Path: path, Err: causeOf(err)}
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return &Error{Path: path, Err: causeOf(err)}
	}
	if !st.Mode().IsRegular() {
		return &Error{Path: path, Err: errors.New("not a regular file")}
	}
	tmp, err := atomicfile.Create(path, st.Mode().Perm())
	if err != nil {
		return writeErr(path, err)
	}
	defer tmp.Abort()
	if _, err = io.Copy(tmp, in); err != nil {
		return &Error{Path: path, Err: fmt.Errorf("copying to %s: %w", tmp.Name(), err)}
	}
	size := st.Size()
	for _, s := range secs {
		if size, err = setSection(tmp, size, s.Name, s.Data); err != nil {
			return &Error{Path: path, Section: s.Name, Err: err}
		}
	}
	err = tmp.Commit(func(name string) error {
		if check == nil {
			return nil
		}
		if err := check(name); err != nil {
			return &Error{Path: path, Err: err}
		}
		return nil
	})
	return writeErr(path, err)
}

// writeErr returns an error of internal/atomicfile as an *Error.
func writeErr(path string, err error) error {
	var ae *atomicfile.Error
	if errors.As(err, &ae) && ae == err {
		if ae.Op != "" {
			return &Error{Path: path, Err: fmt.Errorf("%s: %w", ae.Op, ae.Err)}
		}
		return &Error{Path: path, Err: ae.Err}
	}
	return err
}

// elfLayout holds the raw header fields setSection edits.
type elfLayout struct {
	bo        binary.ByteOrder
	is64      bool
	shoff     uint64
	shentsize uint64
	shnum     uint64 // real count (extended numbering resolved)
	shstrndx  uint64 // real index
	table     []byte // the section header table
}

// Field offsets within the ELF header and a section header, for ELFCLASS32
// and ELFCLASS64.
type shdrField struct{ off32, off64, size32, size64 int }

var (
	shName      = shdrField{0, 0, 4, 4}
	shType      = shdrField{4, 4, 4, 4}
	shFlags     = shdrField{8, 8, 4, 8}
	shAddr      = shdrField{12, 16, 4, 8}
	shOffset    = shdrField{16, 24, 4, 8}
	shSize      = shdrField{20, 32, 4, 8}
	shLink      = shdrField{24, 40, 4, 4}
	shInfo      = shdrField{28, 44, 4, 4}
	shAddralign = shdrField{32, 48, 4, 8}
	shEntsize   = shdrField{36, 56, 4, 8}

	ehShoff     = shdrField{0x20, 0x28, 4, 8}
	ehShentsize = shdrField{0x2e, 0x3a, 2, 2}
	ehShnum     = shdrField{0x30, 0x3c, 2, 2}
	ehShstrndx  = shdrField{0x32, 0x3e, 2, 2}
)

func (l *elfLayout) get(b []byte, f shdrField) uint64 {
	off, size := f.off32, f.size32
	if l.is64 {
		off, size = f.off64, f.size64
	}
	switch size {
	case 2:
		return uint64(l.bo.Uint16(b[off:]))
	case 4:
		return uint64(l.bo.Uint32(b[off:]))
	}
	return l.bo.Uint64(b[off:])
}

func (l *elfLayout) put(b []byte, f shdrField, v uint64) error {
	off, size := f.off32, f.size32
	if l.is64 {
		off, size = f.off64, f.size64
	}
	switch size {
	case 2:
		if v > 0xffff {
			return fmt.Errorf("value 0x%x does not fit a 16-bit ELF field", v)
		}
		l.bo.PutUint16(b[off:], uint16(v))
	case 4:
		if v > 0xffffffff {
			return fmt.Errorf("value 0x%x does not fit a 32-bit ELF field", v)
		}
		l.bo.PutUint32(b[off:], uint32(v))
	default:
		l.bo.PutUint64(b[off:], v)
	}
	return nil
}

func (l *elfLayout) shdr(i uint64) []byte {
	return l.table[i*l.shentsize : (i+1)*l.shentsize]
}

// readLayout reads the ELF header and the section header table of r.
func readLayout(r io.ReaderAt, size int64) (*elfLayout, []byte, error) {
	ehdr := make([]byte, 64)
	n, err := r.ReadAt(ehdr, 0)
	if !isELF(ehdr[:n]) {
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		return nil, nil, ErrNotELF
	}
	if n < 52 {
		return nil, nil, errors.New("file too short for an ELF header")
	}
	l := &elfLayout{}
	switch elf.Class(ehdr[elf.EI_CLASS]) {
	case elf.ELFCLASS32:
	case elf.ELFCLASS64:
		l.is64 = true
	default:
		return nil, nil, fmt.Errorf("unknown ELF class %d", ehdr[elf.EI_CLASS])
	}
	switch elf.Data(ehdr[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		l.bo = binary.LittleEndian
	case elf.ELFDATA2MSB:
		l.bo = binary.BigEndian
	default:
		return nil, nil, fmt.Errorf("unknown ELF data encoding %d", ehdr[elf.EI_DATA])
	}
	l.shoff = l.get(ehdr, ehShoff)
	l.shentsize = l.get(ehdr, ehShentsize)
	l.shnum = l.get(ehdr, ehShnum)
	l.shstrndx = l.get(ehdr, ehShstrndx)
	want := uint64(40)
	if l.is64 {
		want = 64
	}
	if l.shoff == 0 {
		return nil, nil, errors.New("no section header table")
	}
	if l.shentsize != want {
		return nil, nil, fmt.Errorf("section header size %d, expected %d", l.shentsize, want)
	}
	// Section 0 holds the real count and string table index when they do
	// not fit the ELF header (extended section numbering).
	sh0 := make([]byte, want)
	if _, err := r.ReadAt(sh0, int64(l.shoff)); err != nil {
		return nil, nil, fmt.Errorf("section header table at 0x%x: %v", l.shoff, err)
	}
	if l.shnum == 0 {
		l.shnum = l.get(sh0, shSize)
	}
	if l.shstrndx == uint64(elf.SHN_XINDEX) {
		l.shstrndx = l.get(sh0, shLink)
	}
	if l.shnum == 0 || l.shnum > uint64(size)/want || l.shoff+l.shnum*want > uint64(size) || l.shoff+l.shnum*want < l.shoff {
		return nil, nil, fmt.Errorf("section header table (0x%x, %d entries) beyond the end of the file", l.shoff, l.shnum)
	}
	if l.shstrndx == 0 || l.shstrndx >= l.shnum {
		return nil, nil, fmt.Errorf("section name string table index %d out of range", l.shstrndx)
	}
	l.table = make([]byte, l.shnum*want)
	if _, err := r.ReadAt(l.table, int64(l.shoff)); err != nil {
		return nil, nil, fmt.Errorf("section header table at 0x%x: %v", l.shoff, err)
	}
	return l, ehdr, nil
}

// noOverlap reports an error when a section with contents in the file,
// other than section except, shares bytes with one of the ranges
// [lo, hi) given.
func (l *elfLayout) noOverlap(ranges [][2]uint64, except uint64) error {
	for i := uint64(1); i < l.shnum; i++ {
		sh := l.shdr(i)
		off, n := l.get(sh, shOffset), l.get(sh, shSize)
		if i == except || n == 0 || elf.SectionType(l.get(sh, shType)) == elf.SHT_NOBITS {
			continue
		}
		for _, r := range ranges {
			if off < r[1] && r[0] < off+n && off+n > off {
				return fmt.Errorf("section %d (0x%x, 0x%x bytes) shares bytes with 0x%x-0x%x, which the edit rewrites in place", i, off, n, r[0], r[1])
			}
		}
	}
	return nil
}

// sectionBytes reads a section's bytes from the file.
func (l *elfLayout) sectionBytes(r io.ReaderAt, size int64, i uint64) ([]byte, error) {
	sh := l.shdr(i)
	off, n := l.get(sh, shOffset), l.get(sh, shSize)
	if elf.SectionType(l.get(sh, shType)) == elf.SHT_NOBITS {
		return nil, nil
	}
	if off+n < off || off+n > uint64(size) {
		return nil, fmt.Errorf("section %d at 0x%x size 0x%x beyond the end of the file", i, off, n)
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, int64(off)); err != nil {
		return nil, err
	}
	return b, nil
}

func align(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// rw is the temporary copy setSection edits: read and written in place.
type rw interface {
	io.ReaderAt
	io.WriterAt
}

// keptSuffix names the loaded section a section of another size leaves
// behind (WriteSections).
const keptSuffix = ".loaded"

// setSection edits f (size bytes) so that section name holds data, and
// returns the file's new size.
func setSection(f rw, size int64, name string, data []byte) (int64, error) {
	l, ehdr, err := readLayout(f, size)
	if err != nil {
		return 0, err
	}
	strtab, err := l.sectionBytes(f, size, l.shstrndx)
	if err != nil {
		return 0, fmt.Errorf("section name string table: %v", err)
	}
	// Every section's name must be a string of the name table: one
	// outside it (or running off its end) makes a file debug/elf and
	// libelf refuse and readelf call corrupt, written out again as is.
	for i := uint64(1); i < l.shnum; i++ {
		off := l.get(l.shdr(i), shName)
		if off >= uint64(len(strtab)) || bytes.IndexByte(strtab[off:], 0) < 0 {
			return 0, fmt.Errorf("section header %d at 0x%x: name at 0x%x outside the section name string table (0x%x bytes, NUL-terminated)", i, l.shoff+i*l.shentsize, off, len(strtab))
		}
	}
	// Nor may anything else keep debug/elf (and so Open) from reading
	// the file (FuzzWriteSections: a name table of type SHT_NULL): a
	// file btfkit could not read back is not one to edit.
	if _, err := elf.NewFile(io.NewSectionReader(f, 0, size)); err != nil {
		return 0, err
	}
	// The edit rewrites the ELF header, the section header table and
	// the section it replaces in place; a section sharing their bytes
	// would change with them (FuzzWriteSections: .debug_aranges at
	// offset 4).
	hlen := uint64(52)
	if l.is64 {
		hlen = 64
	}
	inPlace := [][2]uint64{{0, hlen}, {l.shoff, l.shoff + l.shnum*l.shentsize}}
	if err := l.noOverlap(inPlace, 0); err != nil {
		return 0, err
	}
	nameOf := func(i uint64) string {
		off := l.get(l.shdr(i), shName)
		end := off + uint64(bytes.IndexByte(strtab[off:], 0))
		return string(strtab[off:end])
	}
	find := func(name string) uint64 {
		for i := uint64(1); i < l.shnum; i++ {
			if nameOf(i) == name {
				return i
			}
		}
		return 0
	}
	// intern returns the offset of name in the section name table,
	// appending it to the in-memory copy when it is not there.
	strGrown := false
	intern := func(name string) uint64 {
		for i := 0; i+len(name) < len(strtab); i++ {
			if strtab[i+len(name)] == 0 && string(strtab[i:i+len(name)]) == name {
				return uint64(i)
			}
		}
		off := uint64(len(strtab))
		strtab = append(append(strtab, name...), 0)
		strGrown = true
		return off
	}
	end := uint64(size)
	appendAt := func(b []byte, a uint64) (uint64, error) {
		off := align(end, a)
		if _, err := f.WriteAt(b, int64(off)); err != nil {
			return 0, err
		}
		end = off + uint64(len(b))
		return off, nil
	}
	// newSection is the header of a section to append, if any.
	var newSection []byte
	addSection := func(nameOff uint64, flags uint64) error {
		off, err := appendAt(data, 4)
		if err != nil {
			return err
		}
		newSection = make([]byte, l.shentsize)
		l.put(newSection, shName, nameOff)
		l.put(newSection, shType, uint64(elf.SHT_PROGBITS))
		l.put(newSection, shFlags, flags)
		if err := l.put(newSection, shOffset, off); err != nil {
			return err
		}
		if err := l.put(newSection, shSize, uint64(len(data))); err != nil {
			return err
		}
		l.put(newSection, shAddralign, 4)
		return nil
	}

	if idx := find(name); idx == 0 {
		if err := addSection(intern(name), 0); err != nil {
			return 0, err
		}
	} else {
		sh := l.shdr(idx)
		typ := elf.SectionType(l.get(sh, shType))
		flags := l.get(sh, shFlags)
		oldOff, oldSize := l.get(sh, shOffset), l.get(sh, shSize)
		if typ != elf.SHT_NOBITS {
			if err := l.noOverlap([][2]uint64{{oldOff, oldOff + oldSize}}, idx); err != nil {
				return 0, err
			}
		}
		compressed := flags&uint64(elf.SHF_COMPRESSED) != 0
		switch {
		case flags&uint64(elf.SHF_ALLOC) != 0 && typ != elf.SHT_NOBITS && !compressed && oldSize == uint64(len(data)):
			// Loaded or not: the same size fits where it is.
			if oldOff+oldSize > end {
				return 0, fmt.Errorf("section at 0x%x size 0x%x beyond the end of the file (0x%x)", oldOff, oldSize, end)
			}
			if _, err := f.WriteAt(data, int64(oldOff)); err != nil {
				return 0, err
			}
			return size, nil
		case flags&uint64(elf.SHF_ALLOC) != 0:
			if err := keepLoaded(l, ehdr, typ, flags, oldSize, len(data)); err != nil {
				return 0, err
			}
			kept := name + keptSuffix
			if find(kept) != 0 {
				return 0, fmt.Errorf("section is loaded (SHF_ALLOC) and holds 0x%x bytes, not 0x%x, and its loaded copy cannot be kept as %s: the file already has a section of that name", oldSize, len(data), kept)
			}
			// The loaded section keeps everything but its name; a new
			// unloaded one takes the name and the contents.
			nameOff := l.get(sh, shName)
			l.put(sh, shName, intern(kept))
			if err := addSection(nameOff, flags&^uint64(elf.SHF_ALLOC|elf.SHF_COMPRESSED)); err != nil {
				return 0, err
			}
		default:
			off := oldOff
			if typ == elf.SHT_NOBITS || uint64(len(data)) > oldSize || oldOff+oldSize > end {
				if off, err = appendAt(data, 4); err != nil {
					return 0, err
				}
			} else if _, err := f.WriteAt(data, int64(off)); err != nil {
				return 0, err
			}
			if typ == elf.SHT_NOBITS {
				l.put(sh, shType, uint64(elf.SHT_PROGBITS))
			}
			l.put(sh, shFlags, flags&^uint64(elf.SHF_COMPRESSED))
			if err := l.put(sh, shOffset, off); err != nil {
				return 0, err
			}
			if err := l.put(sh, shSize, uint64(len(data))); err != nil {
				return 0, err
			}
		}
	}

	if strGrown {
		off, err := appendAt(strtab, 1)
		if err != nil {
			return 0, err
		}
		sh := l.shdr(l.shstrndx)
		if err := l.put(sh, shOffset, off); err != nil {
			return 0, err
		}
		l.put(sh, shSize, uint64(len(strtab)))
		l.put(sh, shFlags, l.get(sh, shFlags)&^uint64(elf.SHF_COMPRESSED))
	}
	if newSection == nil {
		// Same number of sections: the table is rewritten where it is.
		if _, err := f.WriteAt(l.table, int64(l.shoff)); err != nil {
			return 0, err
		}
		return int64(end), nil
	}

	// One more section: a copy of the table with it, at the end.
	table := append(l.table, newSection...)
	l.table = table
	count := l.shnum + 1
	// The ELF header counts sections in 16 bits; from SHN_LORESERVE on the
	// count moves to section 0's sh_size.
	if l.get(ehdr, ehShnum) == 0 || count >= uint64(elf.SHN_LORESERVE) {
		l.put(ehdr, ehShnum, 0)
		l.put(l.shdr(0), shSize, count)
	} else {
		l.put(ehdr, ehShnum, count)
	}
	tabOff, err := appendAt(table, 8)
	if err != nil {
		return 0, err
	}
	if err := l.put(ehdr, ehShoff, tabOff); err != nil {
		return 0, err
	}
	if _, err := f.WriteAt(ehdr[:hlen], 0); err != nil {
		return 0, err
	}
	return int64(end), nil
}

// keepLoaded reports whether a loaded section can be left in place for new
// contents of another size (WriteSections), and why not.
func keepLoaded(l *elfLayout, ehdr []byte, typ elf.SectionType, flags uint64, oldSize uint64, n int) error {
	refuse := func(why string) error {
		return fmt.Errorf("section is loaded (SHF_ALLOC) and holds 0x%x bytes, not 0x%x; %s, so it can be replaced only by exactly 0x%x bytes", oldSize, n, why, oldSize)
	}
	switch t := elf.Type(l.bo.Uint16(ehdr[16:])); t {
	case elf.ET_EXEC, elf.ET_DYN:
	default:
		return refuse(fmt.Sprintf("the file is %v, not an executable or shared object whose loaded copy could be kept", t))
	}
	if typ != elf.SHT_PROGBITS {
		return refuse(fmt.Sprintf("it is %v, not SHT_PROGBITS data", typ))
	}
	if bad := flags & uint64(elf.SHF_WRITE|elf.SHF_EXECINSTR|elf.SHF_TLS|elf.SHF_COMPRESSED); bad != 0 {
		return refuse(fmt.Sprintf("it has %v, which the program uses where it is", elf.SectionFlag(bad)))
	}
	return nil
}
