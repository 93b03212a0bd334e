package dwarffacts

import "github.com/btfkit/btfkit/btf"

// Where types are declared (pahole -I prints it): the unit's name, and for
// each type its entry's offset and its DW_AT_decl_file and DW_AT_decl_line.
// The encoder records them only when asked (encode.Options.DeclInfo).

// Decl is where a type is declared.
type Decl struct {
	// Offset is the global offset of the type's entry in .debug_info.
	Offset uint64
	// File is the DW_AT_decl_file name, joined to its directory; HasFile
	// is false when the entry has none or it names no file.
	File    string
	HasFile bool
	// Line is the DW_AT_decl_line, 0 when the entry has none.
	Line uint32
}

// SetDecl records where type id is declared.
func (f *Facts) SetDecl(id btf.TypeID, d Decl) {
	if f.decl == nil {
		f.decl = make(map[btf.TypeID]Decl)
	}
	f.decl[id] = d
}

// Decl returns where type id is declared; false when it was not recorded.
func (f *Facts) Decl(id btf.TypeID) (Decl, bool) {
	if f == nil {
		return Decl{}, false
	}
	d, ok := f.decl[id]
	return d, ok
}

// SetUnitName records the unit's DW_AT_name.
func (f *Facts) SetUnitName(name string) { f.unitName = name }

// UnitName is the unit's DW_AT_name, "" when unknown (or for BTF).
func (f *Facts) UnitName() string {
	if f == nil {
		return ""
	}
	return f.unitName
}
