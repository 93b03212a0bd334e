// Package dwarffacts holds what a compile unit's DWARF says about its types
// that BTF cannot say, keyed by the IDs of the BTF types made from the same
// DWARF: alignment attributes (DW_AT_alignment) of structs, unions and
// members, the dimensions of multi-dimensional arrays (BTF folds them into
// one element count), whether a type is defined at the top level of its
// unit rather than inside a function or another type's body, which
// types a struct or union's body defines, between which members, where
// types are declared (file and line, and the entry's offset), which
// structs were C++ classes, the unit's language, and which type a
// reference to each DWARF type entry resolves to (so that what is read
// from the DWARF beside the types, such as a function's parameters, can
// name them).
//
// The encoder (package encode) fills a Facts beside each unit's Spec when
// asked; printers that must show what pahole shows from DWARF (package
// layout) read it. A nil *Facts is valid and says "no DWARF": every query
// answers as for BTF.
//
// This package must not know how DWARF is read or how BTF is made or
// printed; it is a table and nothing else.
package dwarffacts
