// Package ctype spells and sizes C types the way pahole 1.32 does, for
// every printer in btfkit that must match pahole byte for byte (layout,
// pfunct, pretty and the tools built on them). A caller makes a Namer over
// one unit's types (a *btf.Spec, and for a DWARF compile unit the
// *dwarffacts.Facts beside it) and asks it for a type's name before a
// declarator (TagName, pahole's tag__name, cut to the C buffer pahole
// writes it into), the keyword before a struct, union or enum (Prefix:
// "class" for C++), a function prototype with its parameters (AppendFtype,
// AppendParams: ftype__fprintf and ftype__fprintf_parms, from a FUNC_PROTO
// or from a DWARF function's own parameter list), and the names --compile
// gives a type whose name another kind of tag took (Rename).
//
// A Sizer gives the size of a type by pahole's rules (Size: tag__size,
// with the "empty base" rule and arrays as pahole's loaders make them,
// Array), and PointerSize guesses a target's pointer size from its BTF as
// libbpf does; layout, pretty, encode/frombtf and cdump take them from
// here.
//
// An Emitter (one per unit, over an output's Emissions) prints the
// definitions a type or a function needs before it, as pahole's
// dwarves_emit.c does for --compile and pfunct's -b; the caller prints
// each type on its own (EmitPrinter), with its tool's conf.
//
// Options hold the few settings of pahole's conf_fprintf that change a
// name: --classes_as_structs, pfunct's --no_parm_names, and the decl
// tags printed before a parameter.
//
// The name is ctype because it is about C types as pahole writes them,
// not about BTF (package btf) or about any one tool; it is internal
// because its API follows pahole's internals (buffer sizes, error
// strings) and changes with them.
//
// Errors are spelled as pahole spells them ("<ERROR(__tag__name:0): 0x12
// not found!>", "<ERROR: type loop>"): a malformed input prints, it does
// not fail.
package ctype
