package dwarffacts

import "github.com/btfkit/btfkit/btf"

// C++: which structs were DW_TAG_class_type entries (BTF has only
// structs), and the unit's DW_AT_language, which decides how pahole
// names a struct in C++ ("class" for DW_LANG_C_plus_plus).

// SetClass records that struct id is a DW_TAG_class_type.
func (f *Facts) SetClass(id btf.TypeID) {
	if f.class == nil {
		f.class = make(map[btf.TypeID]bool)
	}
	f.class[id] = true
}

// Class reports whether struct id is a DW_TAG_class_type.
func (f *Facts) Class(id btf.TypeID) bool { return f != nil && f.class[id] }

// SetLanguage records the unit's DW_AT_language.
func (f *Facts) SetLanguage(lang uint16) { f.language = lang }

// Language is the unit's DW_AT_language, 0 when unknown (or for BTF).
func (f *Facts) Language() uint16 {
	if f == nil {
		return 0
	}
	return f.language
}
