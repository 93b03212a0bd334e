package testelf

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
)

// Section is one section of an image: its header (Name, Type, Flags,
// Addr, Link, Info, Addralign, Entsize; Offset and Size are computed,
// Size kept for SHT_NOBITS) and contents.
type Section struct {
	Header elf.SectionHeader
	Data   []byte
}

// Build writes a little-endian ELF64 image of the given type and machine
// with these sections at indexes 1, 2, ... (in order), and a section
// name table after them.
func Build(typ elf.Type, machine elf.Machine, secs []Section) []byte {
	all := append([]Section{{}}, secs...)
	var out bytes.Buffer
	out.Write(make([]byte, 64))
	var shstr bytes.Buffer
	shstr.WriteByte(0)
	offs := make([]uint64, len(all)+1)
	names := make([]uint32, len(all)+1)
	for i, s := range all {
		if i == 0 {
			continue
		}
		names[i] = uint32(shstr.Len())
		shstr.WriteString(s.Header.Name)
		shstr.WriteByte(0)
		for out.Len()%8 != 0 {
			out.WriteByte(0)
		}
		offs[i] = uint64(out.Len())
		if s.Header.Type != elf.SHT_NOBITS {
			out.Write(s.Data)
		}
	}
	shstrIdx := len(all)
	names[shstrIdx] = uint32(shstr.Len())
	shstr.WriteString(".shstrtab\x00")
	offs[shstrIdx] = uint64(out.Len())
	shstrLen := shstr.Len()
	out.Write(shstr.Bytes())
	for out.Len()%8 != 0 {
		out.WriteByte(0)
	}
	shoff := uint64(out.Len())
	le := binary.LittleEndian
	sh := make([]byte, 64)
	for i := 0; i <= len(all); i++ {
		clear(sh)
		switch {
		case i == shstrIdx:
			le.PutUint32(sh[0:], names[i])
			le.PutUint32(sh[4:], uint32(elf.SHT_STRTAB))
			le.PutUint64(sh[24:], offs[i])
			le.PutUint64(sh[32:], uint64(shstrLen))
			le.PutUint64(sh[48:], 1)
		case i > 0:
			h := all[i].Header
			le.PutUint32(sh[0:], names[i])
			le.PutUint32(sh[4:], uint32(h.Type))
			le.PutUint64(sh[8:], uint64(h.Flags))
			le.PutUint64(sh[16:], h.Addr)
			le.PutUint64(sh[24:], offs[i])
			size := uint64(len(all[i].Data))
			if h.Type == elf.SHT_NOBITS {
				size = h.Size
			}
			le.PutUint64(sh[32:], size)
			le.PutUint32(sh[40:], h.Link)
			le.PutUint32(sh[44:], h.Info)
			le.PutUint64(sh[48:], h.Addralign)
			le.PutUint64(sh[56:], h.Entsize)
		}
		out.Write(sh)
	}
	b := out.Bytes()
	copy(b, elf.ELFMAG)
	b[4], b[5], b[6] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	le.PutUint16(b[16:], uint16(typ))
	le.PutUint16(b[18:], uint16(machine))
	le.PutUint32(b[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(b[40:], shoff)
	le.PutUint16(b[52:], 64)
	le.PutUint16(b[58:], 64)
	le.PutUint16(b[60:], uint16(len(all)+1))
	le.PutUint16(b[62:], uint16(shstrIdx))
	return b
}

// Debug is a non-loaded section of type PROGBITS called name, as a
// compiler writes .debug_* and .BTF.
func Debug(name string, data []byte) Section {
	return Section{Header: elf.SectionHeader{Name: name, Type: elf.SHT_PROGBITS, Addralign: 1}, Data: data}
}
