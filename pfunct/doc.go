// Package pfunct lists the functions of an object, a kernel or a BTF the
// way pahole's pfunct does, byte for byte pfunct 1.32's output (and is
// pahole's other sibling tools too, pglobal, prefcnt, pdwtags and codiff,
// on the same loader: see below): names, prototypes (with BTF decl
// tags), sizes, parameter and goto label counts, lexical blocks with
// their variables and inline expansions, inline expansion statistics, declaration sites, the types a prototype
// needs (-b) and compilable stubs (--compile), the function at an
// address, the functions taking a pointer to a struct, and an ELF symbol
// table's functions.
//
// Functions are read from DWARF with package dwarf, unit by unit, into
// what pahole's loader makes of them (run.go's unit, model.go):
// dwarfload.go follows die__process_function and the recoding through
// abstract origins; addresses in relocatable files are the ones libdwfl
// gives them. The types a DWARF unit's functions use are that unit's
// types as package encode converts them (encode.EachUnit), the same
// objects pahole's layout printing uses, named through the facts that map
// DWARF entries to their IDs; struct bodies are printed by package
// layout. From BTF (btfload.go), FUNCs and their FUNC_PROTOs, with
// DECL_TAGs as attributes; split BTF (a module's) is read on its base
// (Options.BTFBase, pfunct 1.32's --btf_base) and, as pfunct does, the
// base's functions are the unit's too. pfunct 1.32 prints no "static"
// before file-local functions (its changelog's "Mark file-local functions
// as static" is about pfunct's own C source), and neither does this.
//
// run.go is pfunct's main: loading (with pfunct's "stealer" for -f, -A
// and -c), the list of functions it keeps one entry per name in, and the
// listings; names.go spells types through internal/ctype (pahole's
// tag__name and ftype__fprintf, shared with layout); print.go prints
// functions and lexical blocks; emit.go emits type definitions through
// internal/ctype's Emitter (dwarves_emit.c, shared with pahole
// --compile); symtab.go is --symtab.
//
// Where pfunct's output is not a function of its input, this
// package prints something defined instead: a variable or function whose
// DWARF has no DW_AT_decl_line (gcc's __func__) gets line 0, where pahole
// prints whatever its uninitialized stack slot holds. Not done: units
// that link-time optimization merged (pahole reads an LTO vmlinux's units
// as one), C++ namespaces and member functions, types in DWARF 4 type
// units (DW_FORM_ref_sig8), and looking for the running kernel's vmlinux
// by build ID when no FILE is given (its BTF, /sys/kernel/btf/vmlinux or
// PAHOLE_VMLINUX_BTF_FILENAME, is read).
//
// globals.go is pahole's pglobal (Globals): the external variables
// (the loader then reads every variable of a unit, at its top level too)
// or functions of every unit, one per name, sorted, variables printed
// through layout's type__fprintf (TypePrinter.Variable); without either
// it only loads the files, which is what pahole's prefcnt shows of them.
//
// pdwtags.go is pahole's pdwtags (Tags): the loader also records each
// unit's type entries in the order of pahole's types table (nested types
// before the struct defining them, types in function bodies as met, no
// DW_TAG_unspecified_type) and every variable of the tags table (top
// level and inline expansions too, which take no name or type from
// their abstract origin); types print through layout (TypePrinter.Tag),
// functions and lexical blocks as pfunct prints them. Where pdwtags 1.32
// prints a size from memory it never wrote (tag__size of a function
// returning void, of a variable without a type), 0 is printed. Not
// done: C++ member functions and namespaces (as for pfunct).
//
// codiff.go is pahole's codiff (Codiff): both files' units summarized as
// loaded (functions with their sizes, lexical block counts and
// prototypes; structs with their members and holes from layout's
// TypePrinter.Struct), then compared as codiff.c does, units paired by
// name (or the only one); codiff_report.go gives the same changes as data
// (CodiffReport) for btfkit's JSON; archive.go reads a static library
// member by member, as pahole's loader does.
//
// This package must not know command lines (cmd/btfkit maps pfunct's
// options onto Options), nor how DWARF becomes BTF beyond encode's
// exported per-unit hook.
package pfunct
