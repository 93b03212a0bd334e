// Package testelf writes small ELF images for tests: sections given by
// header and contents, laid out one after the other with a section name
// table, so that a test can make an object with exactly the DWARF, BTF
// or relocations it wants, well-formed or not.
//
// It must not know DWARF or BTF, nor read ELF (that is elfx's).
package testelf
