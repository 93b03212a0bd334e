// Package testc builds C fixtures for tests at test time with the system's
// gcc and clang, so every test that needs DWARF or BTF from a compiler reads
// what a real compiler wrote today rather than a checked-in binary.
//
// It owns the C corpus under corpus/ and the knowledge of which compiler
// flags produce which debug formats. It must not know anything about BTF or
// DWARF decoding: it only produces object files.
package testc
