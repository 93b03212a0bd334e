package finalize

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/elfx"
)

// IDKind is what a .BTF_ids entry names.
type IDKind int

const (
	IDStruct IDKind = iota
	IDUnion
	IDTypedef
	IDFunc
	IDSet  // BTF_SET: a count word, then IDs
	IDSet8 // BTF_SET8: a count word, a flags word, then (id, flags) pairs
)

// String is the kind as the entry's symbol spells it (__BTF_ID__KIND__).
func (k IDKind) String() string {
	for _, p := range kindPrefixes {
		if p.kind == k {
			return p.prefix
		}
	}
	return fmt.Sprintf("IDKind(%d)", int(k))
}

// BTFKind is the BTF kind resolve_btfids looks an entry of kind k up as;
// ok is false for sets, which name no type.
func (k IDKind) BTFKind() (kind btf.Kind, ok bool) {
	switch k {
	case IDStruct:
		return btf.KindStruct, true
	case IDUnion:
		return btf.KindUnion, true
	case IDTypedef:
		return btf.KindTypedef, true
	case IDFunc:
		return btf.KindFunc, true
	}
	return 0, false
}

// IDEntry is one name of .BTF_ids with every place it is written: the
// symbols __BTF_ID__KIND__NAME__N (or __BTF_ID__set__NAME,
// __BTF_ID__set8__NAME) of one kind and name.
type IDEntry struct {
	Kind  IDKind
	Name  string
	Addrs []uint64 // the symbols' addresses (st_value), in symbol table order
	Count uint32   // sets: the number of IDs (pairs) the symbol's size gives
}

// IDs is what resolve_btfids reads of an ELF file: the .BTF_ids section's
// contents and address, and its BTF_ID symbols, by kind and name.
type IDs struct {
	Data    []byte // the section's contents (a private copy)
	Addr    uint64 // its sh_addr
	Order   binary.ByteOrder
	Entries []*IDEntry // in order of first appearance in the symbol table
	// Symbols counts the __BTF_ID__ symbols of each kind (the
	// tool's nr_structs, nr_funcs, ...).
	Symbols [IDSet8 + 1]int
}

// ReadIDs reads path's .BTF_ids section and the __BTF_ID__ symbols in it,
// as resolve_btfids' elf_collect and symbols_collect do. A file without
// .BTF_ids or without a symbol table gives nil and no error: the tool
// then rewrites the BTF only.
func ReadIDs(path string) (*IDs, error) {
	f, err := elfx.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadIDsFile(f)
}

// ReadIDsFile is ReadIDs on an open file.
func ReadIDsFile(f *elfx.File) (*IDs, error) {
	// The tool keeps the last SHT_SYMTAB and the last section named
	// .BTF_ids.
	idx := -1
	for i, s := range f.Sections {
		if s.Name == elfx.IDsSection {
			idx = i
		}
	}
	syms, found, err := f.LastSymbolTable()
	if err != nil {
		return nil, err
	}
	if idx < 0 || !found {
		return nil, nil
	}
	sec := f.Sections[idx]
	ids := &IDs{Addr: sec.Addr, Order: f.ByteOrder}
	if sec.Type != elf.SHT_NOBITS {
		raw, err := f.Raw(sec)
		if err != nil {
			return nil, err
		}
		ids.Data = append([]byte(nil), raw...)
	}
	byKey := map[[2]string]*IDEntry{}
	sets := map[string]bool{}
	for _, s := range syms {
		if int(s.Section) != idx || !strings.HasPrefix(s.Name, "__BTF_ID__") {
			continue
		}
		e, err := ids.collect(s, byKey, sets)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", f.Path, elfx.IDsSection, err)
		}
		if len(e.Addrs) >= 100 {
			return nil, fmt.Errorf("%s: %s: symbol %s crossed the number of allowed lists (100)", f.Path, elfx.IDsSection, e.Name)
		}
		e.Addrs = append(e.Addrs, s.Value)
	}
	return ids, nil
}

var kindPrefixes = []struct {
	prefix string
	kind   IDKind
}{
	// The tool's order of tests: "set8" before "set".
	{"struct", IDStruct}, {"union", IDUnion}, {"typedef", IDTypedef}, {"func", IDFunc},
	{"set8", IDSet8}, {"set", IDSet},
}

func (ids *IDs) collect(s elfx.Symbol, byKey map[[2]string]*IDEntry, sets map[string]bool) (*IDEntry, error) {
	rest := s.Name[len("__BTF_ID__"):]
	for _, p := range kindPrefixes {
		if !strings.HasPrefix(rest, p.prefix) {
			continue
		}
		after := rest[len(p.prefix):]
		var name string
		switch p.kind {
		case IDSet, IDSet8:
			// __BTF_ID__set__NAME: everything after "set__".
			if len(after) <= 2 {
				return nil, fmt.Errorf("cannot parse set name %s", s.Name)
			}
			name = after[2:]
			if sets[name] {
				return nil, fmt.Errorf("set %s defined twice", name)
			}
			sets[name] = true
		default:
			// __BTF_ID__func__NAME__N: cut "__N" (get_id).
			if len(after) <= 2 || len(after)-2 >= 512 {
				return nil, fmt.Errorf("cannot parse symbol name %s", s.Name)
			}
			name = after[2:]
			i := strings.LastIndexByte(name, '_')
			if i < 1 || name[i-1] != '_' {
				return nil, fmt.Errorf("cannot parse symbol name %s", s.Name)
			}
			name = name[:i-1]
		}
		ids.Symbols[p.kind]++
		key := [2]string{p.prefix, name}
		if p.kind == IDSet || p.kind == IDSet8 {
			key[0] = "set" // set and set8 share the tool's tree of sets
		}
		e := byKey[key]
		if e == nil {
			e = &IDEntry{Kind: p.kind, Name: name}
			byKey[key] = e
			ids.Entries = append(ids.Entries, e)
		}
		switch p.kind {
		case IDSet8:
			e.Count = uint32(s.Size/8 - 1)
		case IDSet:
			e.Count = uint32(s.Size/4 - 1)
		}
		return e, nil
	}
	return nil, fmt.Errorf("unsupported prefix %s", rest)
}

// word returns the 32-bit word at byte offset off of the section.
func (ids *IDs) word(off uint64) (uint32, bool) {
	if off+4 > uint64(len(ids.Data)) || off+4 < off {
		return 0, false
	}
	return ids.Order.Uint32(ids.Data[off:]), true
}

// setsDescending is the tool's walk of its tree of sets: names compared
// with strcmp, the tree kept in descending order.
func (ids *IDs) setsDescending() []*IDEntry {
	var out []*IDEntry
	for _, e := range ids.Entries {
		if e.Kind == IDSet || e.Kind == IDSet8 {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(a, b int) bool { return strings.Compare(out[a].Name, out[b].Name) > 0 })
	return out
}

// func entries by name.
func (ids *IDs) funcs() map[string]*IDEntry {
	m := map[string]*IDEntry{}
	for _, e := range ids.Entries {
		if e.Kind == IDFunc {
			m[e.Name] = e
		}
	}
	return m
}

// KfuncFlags returns the flags of function fn as find_kfunc_flags finds
// them: the word after fn's ID in the first BTF_SET8 (in the tool's order
// of sets) that holds one of fn's addresses; 0 when none does.
func (ids *IDs) kfuncFlags(fn *IDEntry) uint32 {
	for _, set := range ids.setsDescending() {
		if set.Kind != IDSet8 || len(set.Addrs) != 1 {
			continue
		}
		lo := set.Addrs[0]
		hi := lo + uint64(set.Count)*8
		for _, a := range fn.Addrs {
			if lo < a && a <= hi {
				w, _ := ids.word(a - ids.Addr + 4)
				return w
			}
		}
	}
	return 0
}

// patched returns a set whose count word is not zero: the BTF_SET and
// BTF_SET8 macros leave it zero, resolve_btfids writes the count. Such a
// section has its sets sorted, so its symbols no longer name their
// entries: it cannot be resolved again. nil for an unpatched section.
func (ids *IDs) patched() *IDEntry {
	if ids == nil || ids.Data == nil {
		return nil
	}
	for _, e := range ids.Entries {
		if e.Kind != IDSet && e.Kind != IDSet8 || len(e.Addrs) == 0 || e.Addrs[0] < ids.Addr {
			continue
		}
		if w, ok := ids.word(e.Addrs[0] - ids.Addr); ok && w != 0 {
			return e
		}
	}
	return nil
}
