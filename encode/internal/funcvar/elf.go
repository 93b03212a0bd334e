package funcvar

import (
	"debug/elf"
	"slices"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/elfx"
)

// ELF is what function and variable selection needs of the ELF file
// itself: its sections (to place variables), its symbols (which functions
// have an address, which objects are really in a section), its kfunc
// sets (.BTF_ids) and its calling convention. It is only read once made,
// so the workers of one encode share it.
type ELF struct {
	sections      []section
	funcs         []funcSymbols    // sorted by name
	funcByName    map[string]int32 // index in funcs
	partlyInlined map[string]bool  // names with only .part/.cold symbols (the report)
	// relocatable is set for relocatable files (modules, objects).
	// pahole reads those through libdwfl, which lays their sections out
	// at distinct addresses for the DWARF but leaves symbol values
	// section-relative: a DWARF address then never equals a symbol's, and
	// a variable's section is the one its address falls in.
	// objectSections finds that section here, where DWARF addresses are
	// section-relative too.
	relocatable    bool
	objectSections map[objectAt]int       // (name, value) -> section index of an STT_OBJECT
	objects        map[objectIn]struct{}  // STT_OBJECT symbols by (name, section)
	objectsByName  map[string][]objectSym // with Options.FromBTF: defined STT_OBJECTs by name (btfinput.go)
	// The calling convention: how many parameters are passed in
	// registers, the DWARF register (DW_OP_regN number) of each, -1 where
	// pahole does not know it, and whether an aggregate of up to two
	// words goes in two registers.
	nParamRegs       int
	paramRegs        [8]int8
	twoRegAggregates bool
	addrSize         int
}

// section is an ELF section as variables see it.
type section struct {
	name       string
	addr, size uint64
	typ        elf.SectionType
	encoded    bool // variables in this section are encoded
}

// objectAt names an STT_OBJECT symbol by its name and value.
type objectAt struct {
	name  string
	value uint64
}

// objectIn names an STT_OBJECT symbol by its name and section.
type objectIn struct {
	name    string
	section int
}

// funcSymbols is one function name of the symbol table: a name without
// its ".suffix", with every symbol (name and address) that carries it.
type funcSymbols struct {
	name        string
	syms        []symbol
	ambiguous   bool // the symbols are at more than one address
	kfunc       bool
	kfuncFlags  uint32
	relocatable bool // in a relocatable file (see ELF.relocatable)
}

// symbol is a function symbol: its full name and its address.
type symbol struct {
	name string
	addr uint64
}

const (
	kfFastcall    = 1 << 12 // KF_FASTCALL
	btfSet8Kfuncs = 1 << 0  // BTF_SET8_KFUNCS
	percpuSection = ".data..percpu"
)

// suffixHas reports whether the part of a symbol name from its first '.'
// (foo.isra.0, foo.cold) contains one of the parts.
func suffixHas(name string, parts ...string) bool {
	i := strings.IndexByte(name, '.')
	if i < 0 {
		return false
	}
	for _, p := range parts {
		if strings.Contains(name[i:], p) {
			return true
		}
	}
	return false
}

// hasNonFuncSuffix reports whether the symbol name has a suffix that does
// not stand for a whole function (.cold, .part).
func hasNonFuncSuffix(name string) bool { return suffixHas(name, ".cold", ".part") }

// IsOptimizedClone reports whether the function symbol name is an
// optimized clone's (foo.isra.0, foo.constprop.0): pahole does not encode
// a clone whose parameters were optimized away under the plain name.
func IsOptimizedClone(name string) bool { return suffixHas(name, ".constprop", ".isra") }

// ReadELF reads the sections, the symbols and (with o.KfuncTags) the
// kfunc sets of the ELF file f. o decides which sections hold encodable
// variables. Errors are elfx's.
func ReadELF(f *elfx.File, o Options) (*ELF, error) {
	e := &ELF{objects: make(map[objectIn]struct{}), partlyInlined: make(map[string]bool),
		relocatable: f.Type == elf.ET_REL, objectSections: make(map[objectAt]int)}
	e.setABI(f.Machine, f.Class)
	e.sections = make([]section, len(f.Sections))
	for i, s := range f.Sections {
		sec := section{name: s.Name, addr: s.Addr, size: s.Size, typ: s.Type, encoded: o.GlobalVars}
		if s.Name == percpuSection && o.PerCPUVars {
			sec.encoded = true
		}
		e.sections[i] = sec
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	for _, s := range syms {
		switch elf.ST_TYPE(s.Info) {
		case elf.STT_FUNC:
			if s.Name == "" {
				continue
			}
			if hasNonFuncSuffix(s.Name) {
				e.partlyInlined[s.Name[:strings.IndexByte(s.Name, '.')]] = true
				continue
			}
			name, _, _ := strings.Cut(s.Name, ".")
			e.funcs = append(e.funcs, funcSymbols{name: name, syms: []symbol{{s.Name, s.Value}}})
		case elf.STT_OBJECT:
			e.objects[objectIn{s.Name, int(s.Section)}] = struct{}{}
			if e.relocatable && s.Section < elf.SHN_LORESERVE {
				k := objectAt{s.Name, s.Value}
				if _, dup := e.objectSections[k]; !dup {
					e.objectSections[k] = int(s.Section)
				}
			}
		}
	}
	e.foldFuncs()
	if o.FromBTF {
		e.indexObjects(syms)
	}
	if o.KfuncTags {
		// The functions of the kfunc sets (BTF_SET8 with
		// BTF_SET8_KFUNCS) in .BTF_ids, with their flags.
		kfuncs, err := f.Set8Funcs(syms, btfSet8Kfuncs)
		if err != nil {
			return nil, err
		}
		for _, k := range kfuncs {
			if fn := e.findFunc(k.Name); fn != nil {
				fn.kfunc = true
				fn.kfuncFlags = k.Flags
			}
		}
	}
	return e, nil
}

// foldFuncs sorts the function symbols by name (symbol table order within
// a name), folds each name into one entry and indexes them.
func (e *ELF) foldFuncs() {
	// A stable sort by name: an unstable one of the positions, ties
	// broken by position (sort.SliceStable's swaps of whole entries cost
	// several times more on a vmlinux's ~50,000 symbols).
	order := make([]int32, len(e.funcs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(e.funcs[a].name, e.funcs[b].name); c != 0 {
			return c
		}
		return int(a - b)
	})
	sorted := make([]funcSymbols, len(e.funcs))
	for i, k := range order {
		sorted[i] = e.funcs[k]
	}
	out := e.funcs[:0]
	for _, fn := range sorted {
		if n := len(out); n > 0 && out[n-1].name == fn.name {
			out[n-1].syms = append(out[n-1].syms, fn.syms...)
			continue
		}
		out = append(out, fn)
	}
	// pahole 1.31's check, quirks included: an address 0 never
	// conflicts with the next symbol's, and the last name of the table is
	// never checked (its fold loop ends before).
	for i := 0; i+1 < len(out); i++ {
		fn := &out[i]
		addr := uint64(0)
		for _, s := range fn.syms {
			if addr != 0 && addr != s.addr {
				fn.ambiguous = true
				break
			}
			addr = s.addr
		}
	}
	e.funcByName = make(map[string]int32, len(out))
	for i := range out {
		out[i].relocatable = e.relocatable
		e.funcByName[out[i].name] = int32(i)
	}
	e.funcs = out
}

// NewELF makes the ELF side of a file that is not read: a file of the
// machine's 64-bit calling convention whose symbol table has the given
// function symbols (name -> address), and no sections, so no variables.
// It is for hand-made DWARF, as tests make.
func NewELF(machine elf.Machine, funcs map[string]uint64) *ELF {
	e := &ELF{partlyInlined: map[string]bool{}}
	e.setABI(machine, elf.ELFCLASS64)
	for name, addr := range funcs {
		base, _, _ := strings.Cut(name, ".")
		e.funcs = append(e.funcs, funcSymbols{name: base, syms: []symbol{{name, addr}}})
	}
	// Symbol table order within a name: by full name.
	sort.Slice(e.funcs, func(i, j int) bool { return e.funcs[i].syms[0].name < e.funcs[j].syms[0].name })
	e.foldFuncs()
	return e
}

// setABI records the calling convention's parameter registers, as DWARF
// register numbers (DW_OP_reg0 + n), for the architectures pahole knows.
func (e *ELF) setABI(machine elf.Machine, class elf.Class) {
	e.addrSize = 8
	if class == elf.ELFCLASS32 {
		e.addrSize = 4
	}
	for i := range e.paramRegs {
		e.paramRegs[i] = -1
	}
	set := func(regs ...int8) {
		copy(e.paramRegs[:], regs)
	}
	// pahole 1.31's tables: the register count says which parameters
	// should be in registers at all; the registers are known for s390,
	// x86-64 and ARM only (elsewhere no register is "unexpected").
	switch machine {
	case elf.EM_S390:
		e.nParamRegs = 5
		set(2, 3, 4, 5, 6)
	case elf.EM_X86_64:
		e.nParamRegs = 6
		set(5, 4, 1, 2, 8, 9) // rdi rsi rdx rcx r8 r9
	case elf.EM_SPARC, elf.EM_SPARCV9:
		e.nParamRegs = 6
	case elf.EM_AARCH64, elf.EM_ARM:
		e.nParamRegs = 8
		set(0, 1, 2, 3, 4, 5, 6, 7)
	case elf.EM_ARC, elf.EM_MIPS, elf.EM_PPC, elf.EM_PPC64, elf.EM_RISCV:
		e.nParamRegs = 8
	}
	e.twoRegAggregates = machine != elf.EM_S390
}

// Relocatable reports whether the file is relocatable (a module, an
// object file), whose DWARF addresses are section-relative.
func (e *ELF) Relocatable() bool { return e.relocatable }

// NumFuncNames is the number of function names of the symbol table (its
// function symbols folded by name).
func (e *ELF) NumFuncNames() int { return len(e.funcs) }

// findFunc returns the function symbols of this name, or nil.
func (e *ELF) findFunc(name string) *funcSymbols {
	if i, ok := e.funcByName[name]; ok {
		return &e.funcs[i]
	}
	return nil
}

// sectionAt returns the index of the first PROGBITS or NOBITS section
// that holds addr, or 0.
func (e *ELF) sectionAt(addr uint64) int {
	for i := 1; i < len(e.sections); i++ {
		s := &e.sections[i]
		if s.typ != elf.SHT_PROGBITS && s.typ != elf.SHT_NOBITS {
			continue
		}
		if s.addr <= addr && addr-s.addr < s.size {
			return i
		}
	}
	return 0
}
