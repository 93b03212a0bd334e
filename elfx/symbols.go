package elfx

import (
	"debug/elf"
	"errors"
	"fmt"
	"strings"
)

// Symbols returns the symbol table (.symtab) as debug/elf reads it, without
// the null symbol. A file without one gives none and no error.
func (f *File) Symbols() ([]elf.Symbol, error) {
	syms, err := f.File.Symbols()
	if errors.Is(err, elf.ErrNoSymbols) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Path: f.Path, Section: ".symtab", Err: err}
	}
	return syms, nil
}

// IDsSection is the section the Linux kernel's BTF_ID macros
// (include/linux/btf_ids.h) lay their lists of IDs out in; resolve_btfids
// fills the IDs in after the link. elfx reads its layout (symbols and
// 32-bit words); what an ID stands for is the caller's business.
const IDsSection = ".BTF_ids"

// Symbol name prefixes of .BTF_ids entries.
const (
	idSet8Prefix = "__BTF_ID__set8__" // BTF_SET8_START: a set of (id, flags) pairs
	idFuncPrefix = "__BTF_ID__func__" // BTF_ID_FLAGS(func, NAME, ...): __BTF_ID__func__NAME__N
)

// IDFunc is a function listed in a set of .BTF_ids.
type IDFunc struct {
	Name  string // the function's name
	Flags uint32 // the flags word after its ID (KF_* in a kfunc set)
}

// Set8Funcs returns the functions listed (as __BTF_ID__func__NAME__N
// symbols) in the BTF_SET8 sets of .BTF_ids whose set flags (the word after
// the set's count) share a bit with setFlags, in symbol table order, each
// with the flags word of its (id, flags) pair. syms is the file's symbol
// table (Symbols). A file without .BTF_ids, or without symbols, has none.
func (f *File) Set8Funcs(syms []elf.Symbol, setFlags uint32) ([]IDFunc, error) {
	idx := -1
	var ids *elf.Section
	for i, s := range f.Sections {
		if s.Name == IDsSection {
			ids, idx = s, i
			break
		}
	}
	if ids == nil || len(syms) == 0 || ids.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	data, err := f.Contents(ids, false)
	if err != nil {
		return nil, err
	}
	bo := f.ByteOrder
	word := func(off uint64) (uint32, bool) {
		if off+4 > uint64(len(data)) || off+4 < off {
			return 0, false
		}
		return bo.Uint32(data[off:]), true
	}
	type span struct{ start, end uint64 }
	var sets []span
	for _, s := range syms {
		if int(s.Section) != idx || !strings.HasPrefix(s.Name, idSet8Prefix) {
			continue
		}
		flags, ok := word(s.Value - ids.Addr + 4)
		if !ok || flags&setFlags == 0 {
			continue
		}
		sets = append(sets, span{s.Value, s.Value + s.Size})
	}
	var out []IDFunc
	for _, s := range syms {
		if int(s.Section) != idx {
			continue
		}
		name, ok := idFuncName(s.Name)
		if !ok {
			continue
		}
		for _, r := range sets {
			if r.start <= s.Value && s.Value < r.end {
				// The symbol names the ID word of an (id, flags) pair.
				flags, ok := word(s.Value - ids.Addr + 4)
				if !ok {
					return nil, &Error{Path: f.Path, Section: IDsSection, Offset: s.Value - ids.Addr,
						Err: fmt.Errorf("function %q's flags lie outside the section", name)}
				}
				out = append(out, IDFunc{Name: name, Flags: flags})
				break
			}
		}
	}
	return out, nil
}

// idFuncName takes the function name out of a BTF_ID symbol name,
// __BTF_ID__func__NAME__N.
func idFuncName(sym string) (string, bool) {
	if !strings.HasPrefix(sym, idFuncPrefix) {
		return "", false
	}
	rest := sym[len(idFuncPrefix):]
	if !strings.Contains(rest, "__") {
		return "", false
	}
	i := strings.LastIndexByte(rest, '_')
	if i < 1 || rest[i-1] != '_' {
		return "", false
	}
	return rest[:i-1], true
}
