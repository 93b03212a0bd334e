package elfx

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
)

// relocationsFor returns the SHT_REL and SHT_RELA sections whose sh_info
// names s.
func (f *File) relocationsFor(s *elf.Section) []*elf.Section {
	idx := -1
	for i, t := range f.Sections {
		if t == s {
			idx = i
			break
		}
	}
	var rels []*elf.Section
	for _, r := range f.Sections {
		if (r.Type == elf.SHT_RELA || r.Type == elf.SHT_REL) && int(r.Info) == idx && idx > 0 {
			rels = append(rels, r)
		}
	}
	return rels
}

// symValues returns the values of the symbols of the table in section link
// (index 0 is the null symbol), with undefined symbols as 0. For ET_REL,
// a defined symbol's value is its offset in its section, and sections sit
// at address 0, so this is the S of "S + A".
func (f *File) symValues(link uint32) ([]uint64, error) {
	if int(link) >= len(f.Sections) || link == 0 {
		return nil, fmt.Errorf("relocation section links to no symbol table (section %d)", link)
	}
	st := f.Sections[link]
	raw, err := f.Raw(st)
	if err != nil {
		return nil, err
	}
	size := f.symSize()
	n := len(raw) / size
	vals := make([]uint64, n)
	for i := 0; i < n; i++ {
		s := f.sym(raw[i*size:])
		shndx, v := uint16(s.Section), s.Value
		if shndx == uint16(elf.SHN_UNDEF) {
			v = 0
		} else if shndx < uint16(elf.SHN_LORESERVE) && int(shndx) < len(f.Sections) {
			if base, ok := f.mergedBase()[int(shndx)]; ok {
				v += base
			} else {
				v += f.Sections[shndx].Addr
			}
		}
		vals[i] = v
	}
	return vals, nil
}

// applyRelocations applies the relocations in section r to data, the
// contents of the section they target. Supported: x86-64, AArch64, RISC-V,
// s390x, ppc64 (RELA) and i386 (REL): the absolute (and, where compilers
// use them, PC-relative and add/sub) data relocations of debug sections.
func (f *File) applyRelocations(name string, data []byte, r *elf.Section) error {
	raw, err := f.Raw(r)
	if err != nil {
		return err
	}
	syms, err := f.symValues(r.Link)
	if err != nil {
		return &Error{Section: r.Name, Err: err}
	}
	bo := f.ByteOrder
	is64 := f.Class == elf.ELFCLASS64
	rela := r.Type == elf.SHT_RELA
	var entSize int
	switch {
	case is64 && rela:
		entSize = 24
	case is64:
		entSize = 16
	case rela:
		entSize = 12
	default:
		entSize = 8
	}
	if len(raw)%entSize != 0 {
		return sectionErr(r.Name, uint64(len(raw)/entSize*entSize), fmt.Errorf("size %d is not a multiple of the entry size %d", len(raw), entSize))
	}
	start := 0
	if is64 && rela && f.Machine == elf.EM_X86_64 && bo == binary.LittleEndian && relaX86Fast {
		// Kernel modules: most of a batch's relocations, nearly all
		// R_X86_64_32 and R_X86_64_64 in .debug_info. The general loop
		// below, without its interface calls; it goes on from the first
		// entry of another type.
		if start, err = f.applyRelaX86(name, data, raw, syms, r.Name); err != nil {
			return err
		}
	}
	for pos := start; pos < len(raw); pos += entSize {
		b := raw[pos:]
		var off, sym uint64
		var typ uint32
		var addend int64
		if is64 {
			off = bo.Uint64(b)
			info := bo.Uint64(b[8:])
			sym, typ = info>>32, uint32(info)
			if rela {
				addend = int64(bo.Uint64(b[16:]))
			}
		} else {
			off = uint64(bo.Uint32(b))
			info := bo.Uint32(b[4:])
			sym, typ = uint64(info>>8), info&0xff
			if rela {
				addend = int64(int32(bo.Uint32(b[8:])))
			}
		}
		if sym >= uint64(len(syms)) {
			return sectionErr(r.Name, uint64(pos), fmt.Errorf("symbol index %d out of range", sym))
		}
		S := syms[sym]
		width, kind := f.relocKind(typ)
		if width == 0 {
			if kind == relocNone {
				continue
			}
			return sectionErr(r.Name, uint64(pos), fmt.Errorf("unsupported relocation type %d for %v in %s", typ, f.Machine, name))
		}
		if off > uint64(len(data)) || uint64(len(data))-off < uint64(width) {
			return sectionErr(r.Name, uint64(pos), fmt.Errorf("relocation at 0x%x beyond end of %s", off, name))
		}
		dst := data[off : off+uint64(width)]
		if !rela { // REL: the addend is in place
			switch width {
			case 4:
				addend = int64(int32(bo.Uint32(dst)))
			case 8:
				addend = int64(bo.Uint64(dst))
			}
		}
		var v uint64
		switch kind {
		case relocAbs:
			v = S + uint64(addend)
		case relocPC:
			v = S + uint64(addend) - off
		case relocAdd, relocSub:
			var cur uint64
			switch width {
			case 1:
				cur = uint64(dst[0])
			case 2:
				cur = uint64(bo.Uint16(dst))
			case 4:
				cur = uint64(bo.Uint32(dst))
			case 8:
				cur = bo.Uint64(dst)
			}
			if kind == relocAdd {
				v = cur + S + uint64(addend)
			} else {
				v = cur - S - uint64(addend)
			}
		}
		switch width {
		case 1:
			dst[0] = byte(v)
		case 2:
			bo.PutUint16(dst, uint16(v))
		case 4:
			bo.PutUint32(dst, uint32(v))
		case 8:
			bo.PutUint64(dst, v)
		}
	}
	return nil
}

// relaX86Fast enables applyRelaX86 (tests compare with the general loop).
var relaX86Fast = true

// applyRelaX86 applies x86-64 RELA relocations of the two absolute kinds,
// in order, and returns the position in raw of the first entry of any other
// type (len(raw) when there is none), where the general loop goes on.
func (f *File) applyRelaX86(name string, data, raw []byte, syms []uint64, rname string) (int, error) {
	le := binary.LittleEndian
	for pos := 0; pos+24 <= len(raw); pos += 24 {
		b := raw[pos : pos+24 : pos+24]
		off := le.Uint64(b)
		info := le.Uint64(b[8:])
		sym, typ := info>>32, elf.R_X86_64(uint32(info))
		if sym >= uint64(len(syms)) {
			return 0, sectionErr(rname, uint64(pos), fmt.Errorf("symbol index %d out of range", sym))
		}
		v := syms[sym] + le.Uint64(b[16:])
		switch typ {
		case elf.R_X86_64_32, elf.R_X86_64_32S:
			if off > uint64(len(data)) || uint64(len(data))-off < 4 {
				return 0, sectionErr(rname, uint64(pos), fmt.Errorf("relocation at 0x%x beyond end of %s", off, name))
			}
			le.PutUint32(data[off:], uint32(v))
		case elf.R_X86_64_64:
			if off > uint64(len(data)) || uint64(len(data))-off < 8 {
				return 0, sectionErr(rname, uint64(pos), fmt.Errorf("relocation at 0x%x beyond end of %s", off, name))
			}
			le.PutUint64(data[off:], v)
		default:
			return pos, nil
		}
	}
	return len(raw), nil
}

type relocKindT int

const (
	relocNone relocKindT = iota
	relocAbs
	relocPC
	relocAdd
	relocSub
	relocUnknown
)

// relocKind classifies a relocation type of f's machine: its width in bytes
// (0 if it cannot be applied) and how the value is computed.
func (f *File) relocKind(t uint32) (int, relocKindT) {
	switch f.Machine {
	case elf.EM_X86_64:
		switch elf.R_X86_64(t) {
		case elf.R_X86_64_NONE:
			return 0, relocNone
		case elf.R_X86_64_64:
			return 8, relocAbs
		case elf.R_X86_64_32, elf.R_X86_64_32S:
			return 4, relocAbs
		case elf.R_X86_64_PC32:
			return 4, relocPC
		case elf.R_X86_64_PC64:
			return 8, relocPC
		case elf.R_X86_64_DTPOFF32:
			return 4, relocAbs
		case elf.R_X86_64_DTPOFF64:
			return 8, relocAbs
		}
	case elf.EM_AARCH64:
		switch elf.R_AARCH64(t) {
		case elf.R_AARCH64_NONE:
			return 0, relocNone
		case elf.R_AARCH64_ABS64:
			return 8, relocAbs
		case elf.R_AARCH64_ABS32:
			return 4, relocAbs
		case elf.R_AARCH64_PREL32:
			return 4, relocPC
		case elf.R_AARCH64_PREL64:
			return 8, relocPC
		}
	case elf.EM_386:
		switch elf.R_386(t) {
		case elf.R_386_NONE:
			return 0, relocNone
		case elf.R_386_32:
			return 4, relocAbs
		case elf.R_386_PC32:
			return 4, relocPC
		}
	case elf.EM_S390:
		switch elf.R_390(t) {
		case elf.R_390_NONE:
			return 0, relocNone
		case elf.R_390_32:
			return 4, relocAbs
		case elf.R_390_64:
			return 8, relocAbs
		}
	case elf.EM_PPC64:
		switch elf.R_PPC64(t) {
		case elf.R_PPC64_NONE:
			return 0, relocNone
		case elf.R_PPC64_ADDR32:
			return 4, relocAbs
		case elf.R_PPC64_ADDR64:
			return 8, relocAbs
		}
	case elf.EM_RISCV:
		switch elf.R_RISCV(t) {
		case elf.R_RISCV_NONE:
			return 0, relocNone
		case elf.R_RISCV_32:
			return 4, relocAbs
		case elf.R_RISCV_64:
			return 8, relocAbs
		case elf.R_RISCV_ADD8:
			return 1, relocAdd
		case elf.R_RISCV_ADD16:
			return 2, relocAdd
		case elf.R_RISCV_ADD32:
			return 4, relocAdd
		case elf.R_RISCV_ADD64:
			return 8, relocAdd
		case elf.R_RISCV_SUB8:
			return 1, relocSub
		case elf.R_RISCV_SUB16:
			return 2, relocSub
		case elf.R_RISCV_SUB32:
			return 4, relocSub
		case elf.R_RISCV_SUB64:
			return 8, relocSub
		}
	}
	return 0, relocUnknown
}
