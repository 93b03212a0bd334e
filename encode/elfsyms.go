package encode

import (
	"debug/elf"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/elfx"
)

// elfInfo is what function and variable encoding needs from the ELF file
// itself: its sections (to place variables), its symbols (which functions
// have an address, which objects are really in a section) and its kfunc
// sets (.BTF_ids).
type elfInfo struct {
	secs   []elfSec
	percpu int              // index of .data..percpu, or -1
	funcs  []elfFunc        // sorted by name
	byName map[string]int32 // index in funcs
	parts  map[string]bool  // names with only .part/.cold symbols seen (reports)
	// rel is set for relocatable files (modules, objects). pahole reads
	// those through libdwfl, which lays their sections out at distinct
	// addresses for the DWARF but leaves symbol values section-relative:
	// a DWARF address then never equals a symbol's, and a variable's
	// section is the one its address falls in. objVals finds that section
	// here, where DWARF addresses are section-relative too.
	rel     bool
	objVals map[objVal]int      // (name, value) -> section index of an STT_OBJECT
	objects map[objKey]struct{} // STT_OBJECT symbols by (name, section)
	machine elf.Machine
	// nrRegParams and regParams describe the calling convention: how
	// many parameters are passed in registers, and the DWARF register
	// (DW_OP_regN number) of each.
	nrRegParams int
	regParams   [8]int8
	addrSize    int
	aggTwoRegs  bool // aggregates of up to two words go in two registers
	kfuncErr    error
}

type elfSec struct {
	name      string
	addr, sz  uint64
	typ       elf.SectionType
	include   bool // variables in this section are encoded
	hasSecinf bool
}

type objVal struct {
	name  string
	value uint64
}

type objKey struct {
	name  string
	shndx int
}

// elfFunc is one function name of the symbol table: a name without its
// ".suffix", with every symbol (name and address) that carries it.
type elfFunc struct {
	name      string
	syms      []elfFuncSym
	ambiguous bool // the symbols are at more than one address
	kfunc     bool
	kflags    uint32
	rel       bool // in a relocatable file (see elfInfo.rel)
}

type elfFuncSym struct {
	name string
	addr uint64
}

const (
	kfFastcall    = 1 << 12 // KF_FASTCALL
	btfSet8Kfuncs = 1 << 0  // BTF_SET8_KFUNCS
	percpuSection = ".data..percpu"
)

// hasNonFuncSuffix reports whether the symbol name has a suffix that does
// not stand for a whole function (.cold, .part) after its first '.'.
func hasNonFuncSuffix(name string) bool {
	i := strings.IndexByte(name, '.')
	if i < 0 {
		return false
	}
	s := name[i:]
	return strings.Contains(s, ".cold") || strings.Contains(s, ".part")
}

// hasOptimizedSuffix reports whether the symbol is an optimized clone
// (.isra, .constprop).
func hasOptimizedSuffix(name string) bool {
	i := strings.IndexByte(name, '.')
	if i < 0 {
		return false
	}
	s := name[i:]
	return strings.Contains(s, ".constprop") || strings.Contains(s, ".isra")
}

// readELFInfo reads sections, symbols and kfunc sets of the ELF file f.
// feat decides which sections hold encodable variables.
func readELFInfo(f *elfx.File, feat Features) (*elfInfo, error) {
	info := &elfInfo{percpu: -1, machine: f.Machine, objects: make(map[objKey]struct{}), parts: make(map[string]bool),
		rel: f.Type == elf.ET_REL, objVals: make(map[objVal]int)}
	info.setABI(f)
	info.secs = make([]elfSec, len(f.Sections))
	for i, s := range f.Sections {
		es := elfSec{name: s.Name, addr: s.Addr, sz: s.Size, typ: s.Type}
		if feat.Has(FeatGlobalVar) {
			es.include = true
		}
		if s.Name == percpuSection {
			if info.percpu < 0 {
				info.percpu = i
			}
			if feat.Has(FeatVar) {
				es.include = true
			}
		}
		info.secs[i] = es
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
				info.parts[s.Name[:strings.IndexByte(s.Name, '.')]] = true
				continue
			}
			name := s.Name
			if i := strings.IndexByte(name, '.'); i >= 0 {
				name = name[:i]
			}
			info.funcs = append(info.funcs, elfFunc{name: name, syms: []elfFuncSym{{s.Name, s.Value}}})
		case elf.STT_OBJECT:
			info.objects[objKey{s.Name, int(s.Section)}] = struct{}{}
			if f.Type == elf.ET_REL && s.Section < elf.SHN_LORESERVE {
				k := objVal{s.Name, s.Value}
				if _, dup := info.objVals[k]; !dup {
					info.objVals[k] = int(s.Section)
				}
			}
		}
	}
	// Sort by name, symbol table order within a name, and fold each name
	// into one entry.
	sort.SliceStable(info.funcs, func(i, j int) bool { return info.funcs[i].name < info.funcs[j].name })
	out := info.funcs[:0]
	for _, fn := range info.funcs {
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
	info.byName = make(map[string]int32, len(out))
	for i := range out {
		out[i].rel = info.rel
		info.byName[out[i].name] = int32(i)
	}
	info.funcs = out
	if feat.Has(FeatDeclTagKfuncs) {
		// The functions of the kfunc sets (BTF_SET8 with
		// BTF_SET8_KFUNCS) in .BTF_ids, with their flags.
		kfuncs, err := f.Set8Funcs(syms, btfSet8Kfuncs)
		if err != nil {
			return nil, err
		}
		for _, k := range kfuncs {
			if fn := info.findFunc(k.Name); fn != nil {
				fn.kfunc = true
				fn.kflags = k.Flags
			}
		}
	}
	return info, nil
}

// setABI records the calling convention's parameter registers, as DWARF
// register numbers (DW_OP_reg0 + n), for the architectures pahole knows.
func (info *elfInfo) setABI(f *elfx.File) {
	info.addrSize = 8
	if f.Class == elf.ELFCLASS32 {
		info.addrSize = 4
	}
	for i := range info.regParams {
		info.regParams[i] = -1
	}
	set := func(regs ...int8) {
		copy(info.regParams[:], regs)
	}
	// pahole 1.31's tables: the register count says which parameters
	// should be in registers at all; the registers are known for s390,
	// x86-64 and ARM only (elsewhere no register is "unexpected").
	switch f.Machine {
	case elf.EM_S390:
		info.nrRegParams = 5
		set(2, 3, 4, 5, 6)
	case elf.EM_X86_64:
		info.nrRegParams = 6
		set(5, 4, 1, 2, 8, 9) // rdi rsi rdx rcx r8 r9
	case elf.EM_SPARC, elf.EM_SPARCV9:
		info.nrRegParams = 6
	case elf.EM_AARCH64, elf.EM_ARM:
		info.nrRegParams = 8
		set(0, 1, 2, 3, 4, 5, 6, 7)
	case elf.EM_ARC, elf.EM_MIPS, elf.EM_PPC, elf.EM_PPC64, elf.EM_RISCV:
		info.nrRegParams = 8
	}
	info.aggTwoRegs = f.Machine != elf.EM_S390
}

// findFunc returns the ELF function entry with this name, or nil.
func (info *elfInfo) findFunc(name string) *elfFunc {
	if i, ok := info.byName[name]; ok {
		return &info.funcs[i]
	}
	return nil
}

// section returns the index of the first PROGBITS or NOBITS section that
// holds addr, or 0.
func (info *elfInfo) section(addr uint64) int {
	for i := 1; i < len(info.secs); i++ {
		s := &info.secs[i]
		if s.typ != elf.SHT_PROGBITS && s.typ != elf.SHT_NOBITS {
			continue
		}
		if s.addr <= addr && addr-s.addr < s.sz {
			return i
		}
	}
	return 0
}
