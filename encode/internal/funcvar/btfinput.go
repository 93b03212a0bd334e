package funcvar

import (
	"debug/elf"

	"github.com/btfkit/btfkit/btf"
)

// Functions and variables that a compiler's BTF describes.
//
// A kernel built with BTF per object (gcc -gbtf) links a BTF archive
// whose FUNCs, VARs and DATASECs are each object's own view: every
// function the object defines or only declares, every variable with
// offset 0 in a DATASEC of size 0 (gcc 12). The archive route (package
// encode/frombtf) merges the members, drops those records and hands each
// one here, where the rules of the DWARF route decide again, against the
// same ELF symbol table:
//
//   - a FUNC is a candidate like a DWARF subprogram (AddFunc): its
//     parameters must have names (gcc writes a FUNC without them for each
//     function a unit only declares; the DWARF route never takes a
//     declaration, nor a definition with unnamed parameters), it needs an
//     ELF function symbol of its name, its prototypes must agree between
//     members (consistent_func), its symbols must be at one address, and
//     kfuncs get their DECL_TAGs from .BTF_ids. BTF carries no parameter
//     locations and no addresses: the rules that read them (unexpected
//     registers, optimized-out or reordered parameters, true_signature)
//     cannot apply; a name whose only symbols are optimized clones
//     (.isra, .constprop) is left out instead (ReasonClonesOnly), which is
//     what the DWARF route decides for the clones whose parameters the
//     compiler changed.
//   - a VAR is placed by its ELF symbol (VarSymbol), as libbpf places an
//     object's variables at load time: the symbol of its name in the
//     section its DATASEC names, a global one for a global VAR, for a
//     static one the n-th local symbol of that name and section in symbol
//     table order, n counting the members before that define a static of
//     that name there (a linker writes each input file's local symbols in
//     link order, the order of the archive's members). Its offset is the
//     symbol's place in the section; the same rules as for DWARF
//     variables then keep it or not (AddVar), and the DATASECs are made
//     by Finish.

// ReasonClonesOnly is why a function of a compiler's BTF is left out when
// the ELF symbol table has only optimized clones of its name.
const ReasonClonesOnly = "only optimized clones (.isra/.constprop); BTF has no parameter locations to check them"

// objectSym is an STT_OBJECT symbol, for placing variables by name.
type objectSym struct {
	section     int
	value, size uint64
	global      bool
}

// indexObjects records the defined STT_OBJECT symbols by name, in
// symbol table order.
func (e *ELF) indexObjects(syms []elf.Symbol) {
	e.objectsByName = make(map[string][]objectSym)
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) != elf.STT_OBJECT || s.Name == "" ||
			s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE {
			continue
		}
		b := elf.ST_BIND(s.Info)
		e.objectsByName[s.Name] = append(e.objectsByName[s.Name],
			objectSym{int(s.Section), s.Value, s.Size, b == elf.STB_GLOBAL || b == elf.STB_WEAK})
	}
}

// VarPlace is where the ELF symbol table puts a variable: its section
// (an index), its offset in it and the symbol's size.
type VarPlace struct {
	Section    int
	Off        uint64
	SymbolSize uint64
}

// VarSymbol finds the symbol of a variable that a compiler's BTF lists in
// the DATASEC named section: the global symbol of its name there, or for
// a static one (global false) the nth (from 0) local one. ReadELF must
// have been given Options.FromBTF.
func (e *ELF) VarSymbol(name, section string, global bool, nth int) (VarPlace, bool) {
	n := 0
	for _, s := range e.objectsByName[name] {
		if s.global != global || s.section >= len(e.sections) || e.sections[s.section].name != section {
			continue
		}
		if !global && n < nth {
			n++
			continue
		}
		off := s.value
		if !e.relocatable {
			off -= e.sections[s.section].addr
		}
		return VarPlace{Section: s.section, Off: off, SymbolSize: s.size}, true
	}
	return VarPlace{}, false
}

// AddFunc takes a FUNC of a compiler's BTF, already merged into out:
// its name and the name's offset in out, its prototype's return type and parameters (pairs of name
// offset and type ID in out) and its DECL_TAGs (pairs of value offset in
// out and component index). Call it in member order; Finish decides.
func (s *Selection) AddFunc(name string, nameOff, ret uint32, params, tags []uint32) {
	sym, ok := s.funcIndex(name)
	if !ok {
		return
	}
	if UnnamedParams(params) {
		// Left out, as the DWARF route leaves out a function with
		// unnamed parameters; it has no address to be reported by.
		return
	}
	c := merged{candidate: candidate{name: name, ret: ret, fromBTF: true, allParams: true}}
	c.nameOff = nameOff // Finish needs not look it up
	c.symbolsIndex = sym
	c.params0 = uint32(len(s.words))
	c.nParams = uint32(len(params) / 2)
	s.words = append(s.words, params...)
	if s.o.DeclTags {
		c.tags0 = uint32(len(s.words))
		c.nTags = uint32(len(tags) / 2)
		s.words = append(s.words, tags...)
	}
	s.funcs = append(s.funcs, c)
}

// UnnamedParams reports whether a FUNC whose prototype has params (pairs
// of name offset and type ID, name offset 0 for no name) has a parameter
// without a name other than the variadic marker (no name, type 0, last):
// a declaration (gcc writes one, without names, for every function a
// unit calls), or a definition the DWARF route leaves out too. AddFunc
// takes none (BTF gives no address to report one by), so a caller may
// skip them before building their parameters.
func UnnamedParams(params []uint32) bool {
	for i := 0; i+1 < len(params); i += 2 {
		variadic := i+2 == len(params) && params[i] == 0 && params[i+1] == 0
		if params[i] == 0 && !variadic {
			return true
		}
	}
	return false
}

// WantsFunc reports whether AddFunc would consider a FUNC of this name:
// only names of ELF functions can be encoded (and BTF gives no address
// to report the others by), so a caller may skip the rest before
// building their parameters.
func (s *Selection) WantsFunc(name string) bool {
	_, ok := s.funcIndex(name)
	return ok
}

// funcIndex is the index of the ELF's function symbols of name, and
// whether AddFunc considers name (an ELF function's).
func (s *Selection) funcIndex(name string) (int32, bool) {
	i, ok := s.elf.funcByName[name]
	return i, ok && name != ""
}

// clonesOnly reports whether every symbol of a name is an optimized
// clone's.
func clonesOnly(fn *funcSymbols) bool {
	for _, s := range fn.syms {
		if !IsOptimizedClone(s.name) {
			return false
		}
	}
	return len(fn.syms) > 0
}

// AddVar takes a VAR of a compiler's BTF, merged into out (its name, the
// name's offset, type ID, linkage and DECL_TAG pairs of out), placed by VarSymbol; size
// is its type's size. The DWARF route's rules keep it or not: a section
// whose variables are encoded (the per-CPU section, every section with
// global_var), a valid name that is no compiler or macro artefact, a
// size that fits. One VAR per place: a later one at a place already
// taken is dropped. It reports whether the VAR was added.
func (s *Selection) AddVar(out Merged, name string, nameOff, typ, linkage uint32, p VarPlace, size uint64, tags []uint32) bool {
	e := s.elf
	if p.Section <= 0 || p.Section >= len(e.sections) || !e.sections[p.Section].encoded {
		return false
	}
	if isArtefactName(name) || !btfNameValid(name) || typ == 0 {
		return false
	}
	if size == 0 || size > 1<<32-1 || p.Off > 1<<32-1 {
		return false
	}
	k := varPlace{uint32(p.Section), uint32(p.Off), nameOff}
	if s.seenVar == nil {
		s.seenVar = make(map[varPlace]bool)
		s.sections = make(map[uint32][]sectionEntry)
	}
	if s.seenVar[k] {
		return false
	}
	s.seenVar[k] = true
	id := out.AddRaw(nameOff, btf.Info(btf.KindVar, 0, false), typ, linkage)
	if s.o.DeclTags {
		for i := 0; i+1 < len(tags); i += 2 {
			out.AddRaw(tags[i], btf.Info(btf.KindDeclTag, 0, false), uint32(id), tags[i+1])
		}
	}
	s.sections[uint32(p.Section)] = append(s.sections[uint32(p.Section)], sectionEntry{uint32(id), uint32(p.Off), uint32(size)})
	return true
}
