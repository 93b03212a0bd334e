package pfunct

import (
	"debug/elf"
	"fmt"
	"io"

	"github.com/btfkit/btfkit/elfx"
)

// symtabs is pfunct --symtab: for each file, the function symbols of the
// symbol table called name, as elf_symtab__show prints them.
func symtabs(w io.Writer, files []string, name string) error {
	for _, path := range files {
		if err := symtab(w, path, name); err != nil {
			return err
		}
	}
	return nil
}

// ErrNoSymtab is a file without the symbol table --symtab asked for;
// pfunct exits with status 1 and says nothing.
var ErrNoSymtab = fmt.Errorf("no such symbol table")

type sym struct {
	index       int
	name        string
	value, size uint64
}

func symtab(w io.Writer, path, name string) error {
	f, err := elfx.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var sec *elf.Section
	for _, s := range f.Sections {
		if s.Name == name {
			sec = s
			break
		}
	}
	if sec == nil || sec.Entsize == 0 || int(sec.Link) >= len(f.Sections) {
		return ErrNoSymtab
	}
	raw, err := f.Raw(sec)
	if err != nil {
		return elfx.NamingFile(path, err)
	}
	strs, err := f.Raw(f.Sections[sec.Link])
	if err != nil {
		return elfx.NamingFile(path, err)
	}
	is64 := f.Class == elf.ELFCLASS64
	size := 16
	if is64 {
		size = 24
	}
	n := int(sec.Size / sec.Entsize)
	if n*size > len(raw) {
		n = len(raw) / size
	}
	bo := f.ByteOrder
	var syms []sym
	longest := 0
	for i := 0; i < n; i++ {
		b := raw[i*size:]
		var nameOff uint32
		var info uint8
		var shndx uint16
		var value, sz uint64
		if is64 {
			nameOff = bo.Uint32(b)
			info = b[4]
			shndx = bo.Uint16(b[6:])
			value = bo.Uint64(b[8:])
			sz = bo.Uint64(b[16:])
		} else {
			nameOff = bo.Uint32(b)
			value = uint64(bo.Uint32(b[4:]))
			sz = uint64(bo.Uint32(b[8:]))
			info = b[12]
			shndx = bo.Uint16(b[14:])
		}
		if elf.ST_TYPE(info) != elf.STT_FUNC || nameOff == 0 || shndx == uint16(elf.SHN_UNDEF) {
			continue
		}
		s := cstring(strs, nameOff)
		syms = append(syms, sym{index: i, name: s, value: value, size: sz})
		longest = max(longest, len(s))
	}
	longest = min(longest, 32)
	spacing := 0
	for k := n; k != 0; k /= 10 {
		spacing++
	}
	var out buf
	for _, s := range syms {
		out.PadLeft(fmt.Sprint(s.index), spacing)
		out.Str(": ")
		out.PadRight(s.name, longest)
		out.Byte(' ')
		out.Hex(s.value)
		out.Byte(' ')
		out.PadLeft(fmt.Sprint(uint32(s.size)), 5)
		out.Byte('\n')
	}
	_, err = w.Write(out)
	return err
}

func cstring(b []byte, off uint32) string {
	if int(off) >= len(b) {
		return ""
	}
	e := int(off)
	for e < len(b) && b[e] != 0 {
		e++
	}
	return string(b[off:e])
}
