package elfx

import "debug/elf"

// Symbol is one entry of a symbol table section as SymbolTable reads it:
// the fields of an Elf32_Sym or Elf64_Sym.
type Symbol struct {
	Name    string // from the table's string section ("" past its end)
	NameOff uint32 // st_name, Name's offset in the string section
	Info    uint8  // st_info: elf.ST_TYPE and elf.ST_BIND take it apart
	Other   uint8  // st_other
	Section elf.SectionIndex
	Value   uint64
	Size    uint64
}

// symSize is the size of a symbol table entry of the file's class.
func (f *File) symSize() int {
	if f.Class == elf.ELFCLASS64 {
		return 24
	}
	return 16
}

// sym decodes the symbol table entry at the start of b (at least
// symSize bytes), all but its name.
func (f *File) sym(b []byte) Symbol {
	bo := f.ByteOrder
	if f.Class == elf.ELFCLASS64 {
		return Symbol{NameOff: bo.Uint32(b), Info: b[4], Other: b[5],
			Section: elf.SectionIndex(bo.Uint16(b[6:])), Value: bo.Uint64(b[8:]), Size: bo.Uint64(b[16:])}
	}
	return Symbol{NameOff: bo.Uint32(b), Value: uint64(bo.Uint32(b[4:])), Size: uint64(bo.Uint32(b[8:])),
		Info: b[12], Other: b[13], Section: elf.SectionIndex(bo.Uint16(b[14:]))}
}

// SymbolTable returns every entry of the symbol table section called name
// (.symtab, .dynsym, ...), the null symbol first, so that syms[i] is the
// symbol of index i, as pfunct --symtab and elf_symtab__show number them:
// sh_size/sh_entsize entries (no more than the section's bytes hold), each
// of the class's standard size, named from the section sh_link names.
// found is false when the file has no such section, its sh_entsize is 0
// or its sh_link names no section.
func (f *File) SymbolTable(name string) (syms []Symbol, found bool, err error) {
	var sec *elf.Section
	for _, s := range f.Sections {
		if s.Name == name {
			sec = s
			break
		}
	}
	return f.symbolsOf(sec)
}

// LastSymbolTable is SymbolTable of the file's last SHT_SYMTAB section,
// whatever its name (the one resolve_btfids reads).
func (f *File) LastSymbolTable() (syms []Symbol, found bool, err error) {
	var sec *elf.Section
	for _, s := range f.Sections {
		if s.Type == elf.SHT_SYMTAB {
			sec = s
		}
	}
	return f.symbolsOf(sec)
}

func (f *File) symbolsOf(sec *elf.Section) (syms []Symbol, found bool, err error) {
	if sec == nil || sec.Entsize == 0 || int(sec.Link) >= len(f.Sections) {
		return nil, false, nil
	}
	raw, err := f.Raw(sec)
	if err != nil {
		return nil, true, err
	}
	strs, err := f.Raw(f.Sections[sec.Link])
	if err != nil {
		return nil, true, err
	}
	names := string(strs) // one copy; every name is a part of it
	size := f.symSize()
	n := int(sec.Size / sec.Entsize)
	if n*size > len(raw) {
		n = len(raw) / size
	}
	syms = make([]Symbol, n)
	for i := range syms {
		s := f.sym(raw[i*size:])
		if int(s.NameOff) < len(names) {
			e := int(s.NameOff)
			for e < len(names) && names[e] != 0 {
				e++
			}
			s.Name = names[s.NameOff:e]
		}
		syms[i] = s
	}
	return syms, true, nil
}
