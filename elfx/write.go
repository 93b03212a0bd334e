package elfx

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/btfkit/btfkit/internal/atomicfile"
)

// Section is a section's name and the contents WriteSections gives it,
// or, with Remove, a section WriteSections removes.
type Section struct {
	Name string
	Data []byte
	// Remove removes the section (Data is not used): the sections after
	// it are renumbered, which WriteSections does only where nothing
	// but section headers needs to know (see WriteSections). A file
	// without the section is left as it is.
	Remove bool
}

// WriteSection sets the contents of the section called name in the ELF
// file at path to data, as `pahole -J` does with .BTF; see WriteSections.
func WriteSection(path, name string, data []byte) error {
	return WriteSections(path, []Section{{Name: name, Data: data}}, nil)
}

// WriteSections sets the contents of sections of the ELF file at path, in
// order: an existing section is replaced, a missing one is added
// (SHT_PROGBITS, no flags, 4-byte alignment: the section `objcopy
// --add-section` makes, aligned for BTF's 32-bit words), one marked Remove
// is removed (`objcopy --remove-section`), which is refused for a loaded
// section, the section name table, a section another section header
// links to, and where a symbol, a section group or extended section
// indices (SHT_SYMTAB_SHNDX) name the section or one after it (their
// contents would need renumbering, which this leaves to objcopy).
//
// The file is rewritten through btfkit's one atomic writer
// (internal/atomicfile): a temporary copy in the same directory, synced and
// renamed over the original only when everything has been written and
// check (when not nil) has accepted the temporary file by name, so on any
// error the original file is left untouched and the temporary file is
// removed. Its permission bits are kept; a symbolic link is followed and its
// target replaced.
//
// No segment, loaded section or symbol moves, no section is renumbered,
// program headers are not touched, and the replaced contents are not left
// behind. The file is copied as it is up to the first byte that changes
// (the old contents of a replaced section, or the section name table when
// a name is added, or the section header table when a section is); from
// there the sections the file has are laid out again in their order in the
// file, each at the next offset its alignment allows, a replaced section's
// new contents in its place (aligned to 4 bytes at least, for BTF's 32-bit
// words); then added sections; then the section header table. So a kernel
// module (a relocatable object: every section may move) rewritten with a
// new .BTF is as large as GNU objcopy --update-section makes it, and
// rewriting it again with the same contents gives the same bytes. Bytes of
// that tail no section holds are dropped, as objcopy drops them: alignment
// padding, and whatever followed the last section and header table, such
// as a module signature (which the new contents would have made invalid,
// and the kernel refuses an invalid signature, not a missing one, when it
// does not enforce signatures). The part the program loads (the program
// header table, every segment's bytes, an executable's loaded sections)
// stays where it is; when the tail would start inside it, or a section in
// the tail cannot be moved (its contents run past the end of the file, or
// it asks for an alignment above 64 KiB), nothing moves and the new bytes
// are appended at the end of the file instead.
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
	return WriteSectionsTo(path, path, secs, check)
}

// WriteSectionsTo writes to dst the ELF file at path with the sections
// secs set, as WriteSections does in place (dst may be path): through a
// temporary file beside dst renamed over it when check accepts it, so on
// any error dst is left as it was (or not made) and path is never
// changed. A new dst gets path's permission bits. Errors name path.
func WriteSectionsTo(path, dst string, secs []Section, check func(tmp string) error) error {
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
	e, eerr := editFile(in, st.Size(), secs)
	if eerr != nil {
		eerr.Path = path
		return eerr
	}
	tmp, err := atomicfile.Create(dst, st.Mode().Perm())
	if err != nil {
		return writeErr(dst, err)
	}
	defer tmp.Abort()
	if err := e.write(tmp, in); err != nil {
		// The temporary file is named by the cause (an *fs.PathError).
		var se *Error
		if errors.As(err, &se) {
			se.Path = path
			return se
		}
		return &Error{Path: path, Err: err}
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
	return writeErr(dst, err)
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

	ehPhoff     = shdrField{0x1c, 0x20, 4, 8}
	ehShoff     = shdrField{0x20, 0x28, 4, 8}
	ehPhentsize = shdrField{0x2a, 0x36, 2, 2}
	ehPhnum     = shdrField{0x2c, 0x38, 2, 2}
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

// keptSuffix names the loaded section a section of another size leaves
// behind (WriteSections).
const keptSuffix = ".loaded"

// maxMoveAlign is the largest section alignment a section laid out again
// may ask for; a file with a larger one in its tail gets its new contents
// appended instead (edit.layout).
const maxMoveAlign = 1 << 16

// edit is the new state of an ELF file WriteSections writes: the section
// headers (existing ones edited, added ones after them), the section name
// table, the new contents by section index, and, once laid out, where
// everything goes in the new file.
type edit struct {
	l        *elfLayout
	ehdr     []byte
	hlen     uint64 // the ELF header's size
	size     uint64 // the input's size
	orig     []byte // the input's section header table
	nOld     uint64 // the input's section count
	strtab   []byte
	strGrown bool
	data     map[uint64][]byte // new contents, by section index
	inPlace  map[uint64]bool   // a loaded section given new contents of its size
	removed  map[uint64]bool   // sections removed

	r     io.ReaderAt // the input, for the symbol tables a removal checks
	rsize int64

	// Set by layout.
	tail  uint64  // input bytes from here on are not copied as they are
	items []place // what is written from tail on, in order
	shoff uint64  // where the section header table goes
}

// place is a section's contents in the new file: new contents, or
// bytes of the input.
type place struct {
	idx     uint64
	name    string
	off     uint64 // in the new file
	data    []byte // new contents, or nil:
	src, n  uint64 // n bytes of the input at src
	hasData bool
}

// editFile plans the edit of the ELF file r (size bytes) that gives it
// secs. Its errors name the section (not the file).
func editFile(r io.ReaderAt, size int64, secs []Section) (*edit, *Error) {
	first := ""
	if len(secs) > 0 {
		first = secs[0].Name
	}
	e, err := newEdit(r, size)
	if err != nil {
		return nil, &Error{Section: first, Err: err}
	}
	for _, s := range secs {
		set := e.set
		if s.Remove {
			set = func(name string, _ []byte) error { return e.remove(name) }
		}
		if err := set(s.Name, s.Data); err != nil {
			return nil, &Error{Section: s.Name, Err: err}
		}
	}
	if e.strGrown {
		// The grown name table is new contents like any other.
		sh := e.l.shdr(e.l.shstrndx)
		e.l.put(sh, shSize, uint64(len(e.strtab)))
		e.l.put(sh, shFlags, e.l.get(sh, shFlags)&^uint64(elf.SHF_COMPRESSED))
		if elf.SectionType(e.l.get(sh, shType)) == elf.SHT_NOBITS {
			e.l.put(sh, shType, uint64(elf.SHT_STRTAB))
		}
		e.data[e.l.shstrndx] = e.strtab
		delete(e.inPlace, e.l.shstrndx)
	}
	e.layout(r)
	if err := e.finish(); err != nil {
		return nil, &Error{Err: err}
	}
	return e, nil
}

// newEdit reads the input's headers and section name table, refusing a
// file the edit could not write back faithfully.
func newEdit(r io.ReaderAt, size int64) (*edit, error) {
	l, ehdr, err := readLayout(r, size)
	if err != nil {
		return nil, err
	}
	strtab, err := l.sectionBytes(r, size, l.shstrndx)
	if err != nil {
		return nil, fmt.Errorf("section name string table: %v", err)
	}
	// Every section's name must be a string of the name table: one
	// outside it (or running off its end) makes a file debug/elf and
	// libelf refuse and readelf call corrupt, written out again as is.
	for i := uint64(1); i < l.shnum; i++ {
		off := l.get(l.shdr(i), shName)
		if off >= uint64(len(strtab)) || bytes.IndexByte(strtab[off:], 0) < 0 {
			return nil, fmt.Errorf("section header %d at 0x%x: name at 0x%x outside the section name string table (0x%x bytes, NUL-terminated)", i, l.shoff+i*l.shentsize, off, len(strtab))
		}
	}
	// Nor may anything else keep debug/elf (and so Open) from reading
	// the file (FuzzWriteSections: a name table of type SHT_NULL): a
	// file btfkit could not read back is not one to edit.
	if _, err := elf.NewFile(io.NewSectionReader(r, 0, size)); err != nil {
		return nil, err
	}
	e := &edit{
		l: l, ehdr: ehdr, size: uint64(size), strtab: strtab,
		orig: append([]byte(nil), l.table...), nOld: l.shnum,
		data: map[uint64][]byte{}, inPlace: map[uint64]bool{}, removed: map[uint64]bool{},
	}
	e.r, e.rsize = r, size
	e.hlen = 52
	if l.is64 {
		e.hlen = 64
	}
	// The edit may rewrite the ELF header and the section header table
	// where they are; a section sharing their bytes would change with
	// them (FuzzWriteSections: .debug_aranges at offset 4).
	inPlace := [][2]uint64{{0, e.hlen}, {l.shoff, l.shoff + l.shnum*l.shentsize}}
	if err := l.noOverlap(inPlace, 0); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *edit) nameOf(i uint64) string {
	off := e.l.get(e.l.shdr(i), shName)
	end := off + uint64(bytes.IndexByte(e.strtab[off:], 0))
	return string(e.strtab[off:end])
}

func (e *edit) find(name string) uint64 {
	for i := uint64(1); i < e.l.shnum; i++ {
		if !e.removed[i] && e.nameOf(i) == name {
			return i
		}
	}
	return 0
}

// intern returns the offset of name in the section name table, appending
// it when it is not there.
func (e *edit) intern(name string) uint64 {
	for i := 0; i+len(name) < len(e.strtab); i++ {
		if e.strtab[i+len(name)] == 0 && string(e.strtab[i:i+len(name)]) == name {
			return uint64(i)
		}
	}
	off := uint64(len(e.strtab))
	e.strtab = append(append(e.strtab, name...), 0)
	e.strGrown = true
	return off
}

// add appends a section header (SHT_PROGBITS, 4-byte aligned) for data.
func (e *edit) add(nameOff, flags uint64, data []byte) error {
	sh := make([]byte, e.l.shentsize)
	e.l.put(sh, shName, nameOff)
	e.l.put(sh, shType, uint64(elf.SHT_PROGBITS))
	e.l.put(sh, shFlags, flags)
	if err := e.l.put(sh, shSize, uint64(len(data))); err != nil {
		return err
	}
	e.l.put(sh, shAddralign, 4)
	e.l.table = append(e.l.table, sh...)
	e.data[e.l.shnum] = data
	e.l.shnum++
	return nil
}

// set makes section name hold data (see WriteSections for the rules).
func (e *edit) set(name string, data []byte) error {
	l := e.l
	idx := e.find(name)
	if idx == 0 {
		return e.add(e.intern(name), 0, data)
	}
	sh := l.shdr(idx)
	typ := elf.SectionType(l.get(sh, shType))
	flags := l.get(sh, shFlags)
	oldOff, oldSize := l.get(sh, shOffset), l.get(sh, shSize)
	if typ != elf.SHT_NOBITS && idx < e.nOld {
		if err := l.noOverlap([][2]uint64{{oldOff, oldOff + oldSize}}, idx); err != nil {
			return err
		}
	}
	compressed := flags&uint64(elf.SHF_COMPRESSED) != 0
	switch {
	case flags&uint64(elf.SHF_ALLOC) != 0 && typ != elf.SHT_NOBITS && !compressed && oldSize == uint64(len(data)):
		// Loaded or not: the same size fits where it is.
		if oldOff+oldSize < oldOff || oldOff+oldSize > e.size {
			return fmt.Errorf("section at 0x%x size 0x%x beyond the end of the file (0x%x)", oldOff, oldSize, e.size)
		}
		e.data[idx] = data
		e.inPlace[idx] = true
	case flags&uint64(elf.SHF_ALLOC) != 0:
		if err := keepLoaded(l, e.ehdr, typ, flags, oldSize, len(data)); err != nil {
			return err
		}
		kept := name + keptSuffix
		if e.find(kept) != 0 {
			return fmt.Errorf("section is loaded (SHF_ALLOC) and holds 0x%x bytes, not 0x%x, and its loaded copy cannot be kept as %s: the file already has a section of that name", oldSize, len(data), kept)
		}
		// The loaded section keeps everything but its name; a new
		// unloaded one takes the name and the contents.
		nameOff := l.get(sh, shName)
		l.put(sh, shName, e.intern(kept))
		return e.add(nameOff, flags&^uint64(elf.SHF_ALLOC|elf.SHF_COMPRESSED), data)
	default:
		if typ == elf.SHT_NOBITS {
			l.put(sh, shType, uint64(elf.SHT_PROGBITS))
		}
		l.put(sh, shFlags, flags&^uint64(elf.SHF_COMPRESSED))
		if err := l.put(sh, shSize, uint64(len(data))); err != nil {
			return err
		}
		e.data[idx] = data
		delete(e.inPlace, idx)
	}
	return nil
}

// remove marks section name removed, when nothing but section headers
// refers to it or to a section after it (see WriteSections).
func (e *edit) remove(name string) error {
	l := e.l
	idx := e.find(name)
	if idx == 0 {
		return nil
	}
	sh := l.shdr(idx)
	if l.get(sh, shFlags)&uint64(elf.SHF_ALLOC) != 0 {
		return fmt.Errorf("section is loaded (SHF_ALLOC): not removed")
	}
	if idx == l.shstrndx {
		return fmt.Errorf("section is the section name table: not removed")
	}
	for i := uint64(1); i < l.shnum; i++ {
		h := l.shdr(i)
		if e.removed[i] || i == idx {
			continue
		}
		typ := elf.SectionType(l.get(h, shType))
		infoLink := typ == elf.SHT_REL || typ == elf.SHT_RELA || l.get(h, shFlags)&uint64(elf.SHF_INFO_LINK) != 0
		if l.get(h, shLink) == idx || (infoLink && l.get(h, shInfo) == idx) {
			return fmt.Errorf("section %d (%s) links to it: not removed", i, e.nameOf(i))
		}
		if i >= e.nOld {
			continue
		}
		switch typ {
		case elf.SHT_SYMTAB_SHNDX:
			return fmt.Errorf("the file has extended section indices (section %d, %s), which would need renumbering: not removed", i, e.nameOf(i))
		case elf.SHT_GROUP, elf.SHT_SYMTAB, elf.SHT_DYNSYM:
			b, ok := e.data[i]
			if !ok {
				var err error
				if b, err = l.sectionBytes(e.r, e.rsize, i); err != nil {
					return fmt.Errorf("section %d (%s): %v", i, e.nameOf(i), err)
				}
			}
			if at, n, found := laterIndex(l, typ, b, idx); found {
				return fmt.Errorf("%s entry %d of section %d (%s) names section %d, at or after it, and would need renumbering: not removed", typ, at, i, e.nameOf(i), n)
			}
		}
	}
	e.removed[idx] = true
	delete(e.data, idx)
	delete(e.inPlace, idx)
	return nil
}

// laterIndex looks in the contents of a symbol table or section group
// for a section index at or above idx (below SHN_LORESERVE), returning
// the entry and the index found.
func laterIndex(l *elfLayout, typ elf.SectionType, b []byte, idx uint64) (int, uint64, bool) {
	if typ == elf.SHT_GROUP {
		for k := 1; 4*k+4 <= len(b); k++ { // word 0 is the flags
			if n := uint64(l.bo.Uint32(b[4*k:])); n >= idx {
				return k, n, true
			}
		}
		return 0, 0, false
	}
	size, at := 16, 14 // Elf32_Sym: st_shndx at 14
	if l.is64 {
		size, at = 24, 6
	}
	for k := 0; (k+1)*size <= len(b); k++ {
		if n := uint64(l.bo.Uint16(b[k*size+at:])); n >= idx && n < uint64(elf.SHN_LORESERVE) {
			return k, n, true
		}
	}
	return 0, 0, false
}

// pinned returns the end of the part of the file that must stay where it
// is: the ELF header, the program header table, every segment's bytes and,
// in an executable or shared object, every loaded section. A relocatable
// object (a kernel module) has only its ELF header pinned.
func (e *edit) pinned(r io.ReaderAt) uint64 {
	l := e.l
	p := e.hlen
	phoff := l.get(e.ehdr, ehPhoff)
	phentsize := l.get(e.ehdr, ehPhentsize)
	phnum := l.get(e.ehdr, ehPhnum)
	if phnum == 0xffff { // PN_XNUM: the count is section 0's sh_info
		phnum = l.get(e.orig[:l.shentsize], shInfo)
	}
	if phnum > 0 {
		end := phoff + phnum*phentsize
		if phentsize == 0 || phnum > e.size/phentsize || end < phoff || end > e.size {
			return e.size // program headers this edit cannot read: nothing moves
		}
		p = max(p, end)
		ph := make([]byte, phnum*phentsize)
		if _, err := r.ReadAt(ph, int64(phoff)); err != nil {
			return e.size
		}
		for i := uint64(0); i < phnum; i++ {
			h := ph[i*phentsize : (i+1)*phentsize]
			var off, filesz uint64
			if l.is64 {
				if phentsize < 56 {
					return e.size
				}
				off, filesz = l.bo.Uint64(h[8:]), l.bo.Uint64(h[32:])
			} else {
				if phentsize < 32 {
					return e.size
				}
				off, filesz = uint64(l.bo.Uint32(h[4:])), uint64(l.bo.Uint32(h[16:]))
			}
			if off+filesz < off {
				return e.size
			}
			p = max(p, off+filesz)
		}
	}
	if t := elf.Type(l.bo.Uint16(e.ehdr[16:])); t != elf.ET_REL {
		for i := uint64(1); i < e.nOld; i++ {
			sh := e.orig[i*l.shentsize : (i+1)*l.shentsize]
			if l.get(sh, shFlags)&uint64(elf.SHF_ALLOC) != 0 && elf.SectionType(l.get(sh, shType)) != elf.SHT_NOBITS {
				p = max(p, l.get(sh, shOffset)+l.get(sh, shSize))
			}
		}
	}
	return min(p, e.size)
}

// layout decides where everything goes. The input is copied as it is up
// to the first byte that changes (the tail); from there, the sections the
// input has there are laid out again in their order in the file, each at
// the next offset its alignment allows, new contents in the place of the
// old ones; then sections given contents that could not stay in place or
// were added; then the section header table. Bytes of the tail no
// section holds (the replaced contents, padding, whatever followed the
// last section) are not written. The tail never starts inside the pinned
// part (see pinned); when it would, or a section in it is one this cannot
// move (it runs past the end of the file, or asks for an alignment above
// maxMoveAlign), nothing of the input moves and everything new is
// appended at its end.
func (e *edit) layout(r io.ReaderAt) {
	l := e.l
	origHdr := func(i uint64) []byte { return e.orig[i*l.shentsize : (i+1)*l.shentsize] }
	p := e.pinned(r)
	tail := e.size
	for i := range e.data {
		if i >= e.nOld || e.inPlace[i] {
			continue
		}
		h := origHdr(i)
		if off := l.get(h, shOffset); elf.SectionType(l.get(h, shType)) != elf.SHT_NOBITS && off >= p {
			tail = min(tail, off)
		}
	}
	for i := range e.removed {
		h := origHdr(i)
		if off := l.get(h, shOffset); i < e.nOld && elf.SectionType(l.get(h, shType)) != elf.SHT_NOBITS && off >= p {
			tail = min(tail, off)
		}
	}
	if e.countChanged() && l.shoff >= p {
		tail = min(tail, l.shoff)
	}
	// A section or the header table the tail starts in moves with it.
	tableEnd := l.shoff + e.nOld*l.shentsize
	for changed := true; changed && tail < e.size; {
		changed = false
		for i := uint64(1); i < e.nOld; i++ {
			h := origHdr(i)
			off, n := l.get(h, shOffset), l.get(h, shSize)
			if elf.SectionType(l.get(h, shType)) != elf.SHT_NOBITS && off < tail && off+n > tail {
				tail, changed = off, true
			}
		}
		if l.shoff < tail && tableEnd > tail {
			tail, changed = l.shoff, true
		}
	}
	if tail < p || !e.place(tail) {
		e.place(e.size)
	}
}

// place lays out from tail on (see layout), reporting false when a
// section there cannot be moved.
func (e *edit) place(tail uint64) bool {
	l := e.l
	origHdr := func(i uint64) []byte { return e.orig[i*l.shentsize : (i+1)*l.shentsize] }
	e.tail, e.items = tail, nil
	var moved []uint64
	for i := uint64(1); i < e.nOld; i++ {
		if e.removed[i] {
			continue
		}
		h := origHdr(i)
		_, edited := e.data[i]
		if l.get(h, shOffset) >= tail || (edited && !e.inPlace[i]) {
			moved = append(moved, i)
		}
	}
	for i := e.nOld; i < l.shnum; i++ {
		if !e.removed[i] {
			moved = append(moved, i)
		}
	}
	// In the file's order: the tail's sections by offset (then index),
	// then the others given new contents, by index.
	rank := func(i uint64) (uint64, uint64) {
		if i < e.nOld {
			if off := l.get(origHdr(i), shOffset); off >= tail {
				return 0, off
			}
		}
		return 1, 0
	}
	sort.SliceStable(moved, func(a, b int) bool {
		ga, oa := rank(moved[a])
		gb, ob := rank(moved[b])
		if ga != gb {
			return ga < gb
		}
		return oa < ob
	})
	cur := tail
	for _, i := range moved {
		sh := l.shdr(i)
		a := l.get(sh, shAddralign)
		it := place{idx: i, name: e.nameOf(i)}
		if d, ok := e.data[i]; ok && !e.inPlace[i] {
			it.data, it.hasData = d, true
			a = max(a, 4)
		} else if ok { // a loaded section of the same size in the tail
			it.data, it.hasData = d, true
		} else if elf.SectionType(l.get(sh, shType)) != elf.SHT_NOBITS {
			it.src, it.n = l.get(sh, shOffset), l.get(sh, shSize)
			if it.src+it.n < it.src || it.src+it.n > e.size {
				return false
			}
		}
		if a > maxMoveAlign {
			return false
		}
		it.off = align(cur, a)
		if it.off < cur {
			return false
		}
		if it.hasData {
			cur = it.off + uint64(len(it.data))
		} else {
			cur = it.off + it.n
		}
		e.items = append(e.items, it)
	}
	e.shoff = l.shoff
	if e.countChanged() || l.shoff >= tail {
		e.shoff = align(cur, 8)
	}
	return true
}

// countChanged reports whether sections were added or removed.
func (e *edit) countChanged() bool { return e.l.shnum != e.nOld || len(e.removed) > 0 }

// finish sets the headers to the layout: each moved section's offset,
// the removed sections' headers taken out and the others renumbered, the
// section count and the header table's offset in the ELF header.
func (e *edit) finish() error {
	l := e.l
	for _, it := range e.items {
		if err := l.put(l.shdr(it.idx), shOffset, it.off); err != nil {
			return err
		}
	}
	if len(e.removed) > 0 {
		renum := make([]uint64, l.shnum)
		n := uint64(0)
		for i := range renum {
			renum[i] = n
			if !e.removed[uint64(i)] {
				n++
			}
		}
		var table []byte
		for i := uint64(0); i < l.shnum; i++ {
			if e.removed[i] {
				continue
			}
			h := l.shdr(i)
			if v := l.get(h, shLink); v < l.shnum {
				l.put(h, shLink, renum[v])
			}
			typ := elf.SectionType(l.get(h, shType))
			if typ == elf.SHT_REL || typ == elf.SHT_RELA || l.get(h, shFlags)&uint64(elf.SHF_INFO_LINK) != 0 {
				if v := l.get(h, shInfo); v < l.shnum {
					l.put(h, shInfo, renum[v])
				}
			}
			table = append(table, h...)
		}
		l.table, l.shnum = table, n
		l.shstrndx = renum[l.shstrndx]
		if l.get(e.ehdr, ehShstrndx) == uint64(elf.SHN_XINDEX) {
			l.put(l.shdr(0), shLink, l.shstrndx)
		} else if err := l.put(e.ehdr, ehShstrndx, l.shstrndx); err != nil {
			return err
		}
	}
	if count := l.shnum; e.countChanged() {
		// The ELF header counts sections in 16 bits; from SHN_LORESERVE on
		// the count moves to section 0's sh_size.
		if l.get(e.ehdr, ehShnum) == 0 || count >= uint64(elf.SHN_LORESERVE) {
			l.put(e.ehdr, ehShnum, 0)
			l.put(l.shdr(0), shSize, count)
		} else {
			l.put(e.ehdr, ehShnum, count)
		}
	}
	return l.put(e.ehdr, ehShoff, e.shoff)
}

// write writes the new file to w from the input r.
func (e *edit) write(w io.WriterAt, r io.ReaderAt) error {
	buf := make([]byte, 1<<20)
	copyRange := func(dst, src, n uint64) error {
		_, err := io.CopyBuffer(io.NewOffsetWriter(w, int64(dst)), io.NewSectionReader(r, int64(src), int64(n)), buf)
		return err
	}
	if err := copyRange(0, 0, e.tail); err != nil {
		return err
	}
	for i, d := range e.data {
		if e.inPlace[i] && i < e.nOld {
			if off := e.l.get(e.orig[i*e.l.shentsize:], shOffset); off < e.tail {
				if _, err := w.WriteAt(d, int64(off)); err != nil {
					return err
				}
			}
		}
	}
	for _, it := range e.items {
		var err error
		if it.hasData {
			_, err = w.WriteAt(it.data, int64(it.off))
		} else if it.n > 0 {
			err = copyRange(it.off, it.src, it.n)
		}
		if err != nil {
			return &Error{Section: it.name, Err: err}
		}
	}
	if _, err := w.WriteAt(e.l.table, int64(e.shoff)); err != nil {
		return err
	}
	_, err := w.WriteAt(e.ehdr[:e.hlen], 0)
	return err
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
