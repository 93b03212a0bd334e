package elfx

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteSection sets the contents of the section called name in the ELF
// file at path to data, as `pahole -J` does with .BTF: an existing section
// is replaced, a missing one is added (SHT_PROGBITS, no flags, 4-byte
// alignment, like the section `objcopy --add-section` makes, but aligned
// for BTF's 32-bit words).
//
// The file is rewritten through a temporary file in the same directory that
// is renamed over the original only when everything has been written, so on
// any error the original file is left untouched. Its permission bits are
// kept; a symbolic link is followed and its target replaced.
//
// The rest of the file keeps its layout: no section, segment or symbol moves
// and no section is renumbered. New bytes (the contents, a grown section
// header string table, a grown section header table) are appended at the
// end of the file, and the headers that point to them are updated. A
// section that is loaded (SHF_ALLOC) can only be replaced by data of the
// same size, which is then written in place.
func WriteSection(path, name string, data []byte) (err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	in, err := os.Open(real)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".btfkit-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = io.Copy(tmp, in); err != nil {
		return fmt.Errorf("%s: copying to %s: %w", path, tmp.Name(), err)
	}
	if err = setSection(in, tmp, st.Size(), name, data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err = tmp.Chmod(st.Mode().Perm()); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), real)
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
	if n < 4 || string(ehdr[:4]) != elf.ELFMAG {
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		return nil, nil, errors.New("not an ELF file")
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

// setSection edits w, a copy of r (size bytes), so that section name holds
// data.
func setSection(r io.ReaderAt, w io.WriterAt, size int64, name string, data []byte) error {
	l, ehdr, err := readLayout(r, size)
	if err != nil {
		return err
	}
	strtab, err := l.sectionBytes(r, size, l.shstrndx)
	if err != nil {
		return fmt.Errorf("section name string table: %v", err)
	}
	nameOf := func(i uint64) string {
		off := l.get(l.shdr(i), shName)
		if off >= uint64(len(strtab)) {
			return ""
		}
		end := off
		for end < uint64(len(strtab)) && strtab[end] != 0 {
			end++
		}
		return string(strtab[off:end])
	}
	end := uint64(size)
	idx := uint64(0)
	for i := uint64(1); i < l.shnum; i++ {
		if nameOf(i) == name {
			idx = i
			break
		}
	}

	if idx != 0 {
		// Replace an existing section.
		sh := l.shdr(idx)
		typ := elf.SectionType(l.get(sh, shType))
		flags := l.get(sh, shFlags)
		oldOff, oldSize := l.get(sh, shOffset), l.get(sh, shSize)
		var off uint64
		switch {
		case flags&uint64(elf.SHF_ALLOC) != 0:
			if typ == elf.SHT_NOBITS || oldSize != uint64(len(data)) || flags&uint64(elf.SHF_COMPRESSED) != 0 {
				return fmt.Errorf("section %s is loaded (SHF_ALLOC) and holds 0x%x bytes; it can be replaced in place only by as many bytes, not 0x%x", name, oldSize, len(data))
			}
			off = oldOff
		case typ != elf.SHT_NOBITS && uint64(len(data)) <= oldSize && oldOff+oldSize <= end:
			off = oldOff
		default:
			off = align(end, 4)
			end = off + uint64(len(data))
		}
		if typ == elf.SHT_NOBITS {
			l.put(sh, shType, uint64(elf.SHT_PROGBITS))
		}
		l.put(sh, shFlags, flags&^uint64(elf.SHF_COMPRESSED))
		if err := l.put(sh, shOffset, off); err != nil {
			return err
		}
		if err := l.put(sh, shSize, uint64(len(data))); err != nil {
			return err
		}
		if _, err := w.WriteAt(data, int64(off)); err != nil {
			return err
		}
		_, err := w.WriteAt(sh, int64(l.shoff+idx*l.shentsize))
		return err
	}

	// Add a section: its name (reusing an equal string already in the
	// section name table, else appending to a copy of the table), its
	// contents, and a copy of the section header table with one more entry.
	nameOff := -1
	for i := 0; i+len(name) < len(strtab); i++ {
		if strtab[i+len(name)] == 0 && string(strtab[i:i+len(name)]) == name {
			nameOff = i
			break
		}
	}
	dataOff := align(end, 4)
	end = dataOff + uint64(len(data))
	if _, err := w.WriteAt(data, int64(dataOff)); err != nil {
		return err
	}
	if nameOff < 0 {
		nameOff = len(strtab)
		strtab = append(append(strtab, name...), 0)
		strOff := end
		end += uint64(len(strtab))
		if _, err := w.WriteAt(strtab, int64(strOff)); err != nil {
			return err
		}
		sh := l.shdr(l.shstrndx)
		if err := l.put(sh, shOffset, strOff); err != nil {
			return err
		}
		l.put(sh, shSize, uint64(len(strtab)))
		l.put(sh, shFlags, l.get(sh, shFlags)&^uint64(elf.SHF_COMPRESSED))
	}
	nsh := make([]byte, l.shentsize)
	l.put(nsh, shName, uint64(nameOff))
	l.put(nsh, shType, uint64(elf.SHT_PROGBITS))
	l.put(nsh, shOffset, dataOff)
	l.put(nsh, shSize, uint64(len(data)))
	l.put(nsh, shAddralign, 4)
	table := append(l.table, nsh...)
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
	tabOff := align(end, 8)
	if _, err := w.WriteAt(table, int64(tabOff)); err != nil {
		return err
	}
	if err := l.put(ehdr, ehShoff, tabOff); err != nil {
		return err
	}
	hlen := 52
	if l.is64 {
		hlen = 64
	}
	_, err = w.WriteAt(ehdr[:hlen], 0)
	return err
}
