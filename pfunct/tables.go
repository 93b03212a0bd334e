package pfunct

import (
	"errors"

	"github.com/btfkit/btfkit/btf"
	"github.com/btfkit/btfkit/dwarf"
	"github.com/btfkit/btfkit/elfx"
	"github.com/btfkit/btfkit/encode"
)

// The sizes of the tables pahole's loaders fill for each compile unit, as
// pahole --ptr_table_stats prints them: its types (void first), its
// functions and its other tags (parameters, variables, labels, inline
// expansions...). Which entries go to which table, and which are left
// out, follows pahole's DWARF loader (die__process_unit and the functions
// it calls) and BTF loader (btf__load_types) entry by entry; the counts
// are pahole 1.32's for every compile unit of the Debian 6.1 vmlinux.

// TableCounts are the entries of one unit's three tables.
type TableCounts struct {
	Tags, Types, Functions uint32
}

// Allocated is the size pahole's table has grown to for n entries: by
// 2048 entries at a time.
func Allocated(n uint32) uint32 { return (n + 2047) / 2048 * 2048 }

// DWARFTables returns the counts of each compile unit of the ELF file at
// path, by unit index, walking jobs units at a time (0: one per CPU). A
// file without DWARF gives encode.ErrNoDWARF.
func DWARFTables(path string, jobs int) ([]TableCounts, error) {
	f, err := elfx.Open(path)
	if errors.Is(err, elfx.ErrNotELF) {
		return nil, encode.ErrNoDWARF
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.FindDebug(".debug_info") == nil {
		return nil, encode.ErrNoDWARF
	}
	d, err := dwarf.FromELF(f)
	if err != nil {
		return nil, elfx.NamingFile(path, err)
	}
	defer d.Close()
	out := make([]TableCounts, len(d.Units()))
	err = dwarf.Walk(d, jobs, unitTables, func(u *dwarf.Unit, c TableCounts) error {
		out[u.Index] = c
		return nil
	})
	return out, err
}

// tableNode is an entry of the unit's tree.
type tableNode struct {
	tag  dwarf.Tag
	kids []int32
}

// tableWalk counts one unit's entries as pahole's DWARF loader stores
// them.
type tableWalk struct {
	n   []tableNode
	c   TableCounts
	cpp bool // DW_LANG_C_plus_plus (pahole's cu__is_c_plus_plus): members are tags
}

// pahole's tag__is_tag_type: entries of the types table.
func isTableType(t dwarf.Tag) bool {
	switch t {
	case dwarf.TagArrayType, dwarf.TagStringType, dwarf.TagBaseType, dwarf.TagConstType,
		dwarf.TagPointerType, dwarf.TagRvalueReferenceType, dwarf.TagPtrToMemberType,
		dwarf.TagReferenceType, dwarf.TagRestrictType, dwarf.TagSubroutineType,
		dwarf.TagUnspecifiedType, dwarf.TagVolatileType, dwarf.TagAtomicType,
		dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagInterfaceType,
		dwarf.TagUnionType, dwarf.TagTypedef, dwarf.TagEnumerationType:
		return true
	}
	return false
}

func unitTables(r *dwarf.UnitReader) (TableCounts, error) {
	var n []tableNode
	var stack []int32
	var e dwarf.Entry
	for {
		ok, err := r.Next(&e)
		if err != nil {
			return TableCounts{}, err
		}
		if !ok {
			break
		}
		if e.Tag == 0 {
			continue
		}
		if len(stack) > e.Depth {
			stack = stack[:e.Depth]
		}
		n = append(n, tableNode{tag: e.Tag})
		i := int32(len(n) - 1)
		if len(stack) > 0 && stack[len(stack)-1] >= 0 {
			p := stack[len(stack)-1]
			n[p].kids = append(n[p].kids, i)
		}
		if e.Children {
			for len(stack) < e.Depth {
				stack = append(stack, -1)
			}
			stack = append(stack, i)
		}
	}
	w := &tableWalk{n: n, c: TableCounts{Types: 1}} // void
	if len(n) == 0 {
		return w.c, nil
	}
	w.cpp = r.Language() == dwLangCPlusPlus
	for _, k := range n[0].kids {
		w.tag(k, true)
	}
	return w.c, nil
}

// dwLangCPlusPlus is DW_LANG_C_plus_plus (C++98), the one language pahole
// takes for C++ here.
const dwLangCPlusPlus = 0x4

// tag is die__process_tag and what follows it for entry i.
func (w *tableWalk) tag(i int32, top bool) {
	t := w.n[i].tag
	switch {
	case isTableType(t):
		// A top-level DW_TAG_unspecified_type gets no ID (void).
		if !top || t != dwarf.TagUnspecifiedType {
			w.c.Types++
		}
		switch t {
		case dwarf.TagStructureType, dwarf.TagClassType, dwarf.TagInterfaceType, dwarf.TagUnionType:
			for _, k := range w.n[i].kids {
				switch w.n[k].tag {
				case dwarf.TagMember, dwarf.TagInheritance:
					if w.cpp {
						w.c.Tags++
					}
				case dwarf.TagLLVMAnnotation, dwarf.TagGNUAnnotation,
					dwarf.TagTemplateTypeParameter, dwarf.TagTemplateValueParameter:
				default:
					w.tag(k, false)
				}
			}
		case dwarf.TagSubroutineType:
			for _, k := range w.n[i].kids {
				switch w.n[k].tag {
				case dwarf.TagFormalParameter:
					w.c.Tags++
				case dwarf.TagUnspecifiedParameters, dwarf.TagSubrangeType:
				default:
					w.tag(k, false)
				}
			}
		}
	case t == dwarf.TagSubprogram:
		w.c.Functions++
		w.function(i)
	case t == dwarf.TagVariable, t == dwarf.TagLabel, t == dwarf.TagImportedDeclaration,
		t == dwarf.TagImportedModule, t == dwarf.TagConstant:
		w.c.Tags++
	case t == dwarf.TagNamespace:
		w.c.Tags++
		for _, k := range w.n[i].kids {
			w.tag(k, false)
		}
	}
}

// function is die__process_function: a subprogram's or lexical block's
// children.
func (w *tableWalk) function(i int32) {
	for _, k := range w.n[i].kids {
		switch w.n[k].tag {
		case dwarf.TagCallSite, dwarf.TagCallSiteParameter, dwarf.TagGNUCallSite, dwarf.TagGNUCallSiteParameter,
			dwarf.TagDwarfProcedure, dwarf.TagGNUTemplateParameterPack, dwarf.TagGNUFormalParameterPack,
			dwarf.TagGNUTemplateTemplateParam, dwarf.TagTemplateTypeParameter, dwarf.TagTemplateValueParameter,
			dwarf.TagUnspecifiedParameters, dwarf.TagLLVMAnnotation, dwarf.TagGNUAnnotation:
		case dwarf.TagFormalParameter, dwarf.TagVariable, dwarf.TagLabel:
			w.c.Tags++
		case dwarf.TagInlinedSubroutine:
			w.c.Tags++
			w.inline(k)
		case dwarf.TagLexicalBlock:
			w.function(k)
		default:
			w.tag(k, false)
		}
	}
}

// inline is die__process_inline_expansion: its parameters are not kept.
func (w *tableWalk) inline(i int32) {
	for _, k := range w.n[i].kids {
		switch w.n[k].tag {
		case dwarf.TagCallSite, dwarf.TagCallSiteParameter, dwarf.TagGNUCallSite, dwarf.TagGNUCallSiteParameter,
			dwarf.TagFormalParameter:
		case dwarf.TagLexicalBlock:
			w.function(k)
		case dwarf.TagInlinedSubroutine:
			w.c.Tags++
			w.inline(k)
		case dwarf.TagLabel:
			w.c.Tags++
		default:
			w.tag(k, false)
		}
	}
}

// BTFTables returns the counts of a BTF input (one unit): pahole's BTF
// loader puts each type at its ID, so a table's size is its largest ID
// plus one: FUNCs in the functions table, VARs in the tags table, every
// other kind but DATASEC and DECL_TAG in the types table (whose entry 0
// is void). Split BTF counts its base's types too.
func BTFTables(s *btf.Spec) TableCounts {
	c := TableCounts{Types: 1}
	for id := btf.TypeID(1); id < s.NextID(); id++ {
		n := uint32(id) + 1
		switch s.Type(id).Kind() {
		case btf.KindFunc:
			c.Functions = n
		case btf.KindVar:
			c.Tags = n
		case btf.KindDatasec, btf.KindDeclTag:
		default:
			c.Types = n
		}
	}
	return c
}
