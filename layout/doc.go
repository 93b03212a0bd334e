// Package layout prints struct and union layouts the way pahole does:
// members with their offsets and sizes, bitfields, nested anonymous
// structs and unions, holes, bit holes, trailing padding, cache line
// boundaries, the summary block, and the __packed__ and __aligned__
// attributes pahole infers. Its output is byte for byte pahole 1.32's.
//
// A caller makes a Listing (NewListing, with Options such as ClassNames,
// pahole's -C) and hands it each input's btf.Spec (Unit, with the
// input's *dwarffacts.Facts or nil), then calls Finish; Missing says
// which -C name was never found. ExampleListing prints one struct. A
// caller with files rather than Specs calls ListFiles, which reads them
// as pahole's loader does (DWARF unit by unit through package encode, BTF
// through package input, in the first -F format each file has).
//
// It reads the btf model only (btf.Spec), so BTF from any source and DWARF
// converted by package encode share one printer. What DWARF knows and BTF
// does not (alignment attributes, array dimensions, types defined inside
// functions) comes beside the Spec in a *dwarffacts.Facts; with facts the
// output is pahole's for DWARF input, without them pahole's for BTF (-F
// btf), which infers alignments from the offsets.
//
// Arrays are what pahole's loaders make of them (class.go's array): a
// DWARF array is one array with all its dimensions (the facts have them;
// package encode writes one BTF ARRAY per dimension, which are skipped);
// from BTF, pahole 1.32 folds an ARRAY whose element is directly an ARRAY
// of a lower ID into one multi-dimensional array, as it prints the one
// ARRAY per dimension pahole 1.32 encodes. (1.31 encoded a
// multi-dimensional array as one ARRAY of all its elements.)
//
// A Listing is one run of pahole over its inputs: each input (a BTF, a
// member of a BTF archive, or one DWARF compile unit) is handed to Unit in
// order, as pahole's loader hands each unit to its printing callback; the
// Listing remembers which types were printed and which -C names are still
// wanted. Finish reports what was never found.
//
// The files follow pahole's concerns: class.go builds a type's members and
// computes holes, natural alignment and the packed/aligned inference (with
// pahole's integer widths and its order-dependent caching); types are
// spelled and sized by internal/ctype (pahole's tag__name, ftype__fprintf,
// tag__size), shared with pfunct; print.go prints members, structs,
// unions, enums and typedefs with the summary; listing.go walks an input's
// types and finds -C names; filter.go selects types (pahole's
// class__filter and cu__filter: -a, -A, -x, -y, -D, -X, -H, -B, -z,
// --padding_ge, --packed, --structs, --unions, the flexible array filters,
// --show_private_classes); formatters.go prints what is printed per type
// (the layout, or -s, -n, -N, -z's one-line fields); find.go lists
// containers (-i, -d), pointers (-f) and the enum of an enumerator
// (--contains_enumerator); structures.go remembers the types listed, so
// that a type defined alike in many DWARF units is listed once, counts
// their definitions (-T) and sorts them (--sort); options.go has the
// options.
//
// pahole 1.32 applies the struct-only filters (holes, bit holes, padding,
// --packable, the flexible array filters) to unions too, which have none
// of these: with --unions they select no union (1.31 let --unions skip
// them, and crashed on --unions --packable), and --with_flexible_array no
// longer matches a union.
//
// The tests hold every option to the pahole on PATH, Debian sid's 1.32,
// at test time, on C fixtures compiled at test time and on the Debian
// kernel's BTF; the vmlinux DWARF listings pahole takes minutes over are
// its committed output (testdata/README.md).
//
// Where pahole reads memory it does not own, the listing prints a defined
// value instead: -s of a typedef or enum found by -C (the holes column is
// whatever follows the type object; 0 here), -N and -z of an anonymous
// type (-a; pahole crashes on strlen and puts of NULL; "(null)" here).
//
// A new option belongs in Options and, when it changes how a type is
// printed, in conf (print.go), which is copied by value into nested
// printing exactly as pahole copies its conf_fprintf.
//
// How a layout is printed: print_options.go sets conf from Options;
// expand.go (-E, -p), decl_info.go (-I), biggest.go (-l), word_size.go
// (-w), flat_arrays.go, fixup_silly_bitfields.go (as 1.32 fixed it: a
// bitfield as wide as its type) and compile.go (--compile, through
// internal/ctype's Emitter, shared with pfunct -b) hold one option each.
// --compile leaves out one line pahole prints, a typedef of
// a compiler builtin (__builtin_va_list), so that clang compiles the
// output too.
//
// A type's text is written out while it is printed (flush.go): with -p or
// -w, pahole prints gigabytes for one struct of a kernel.
//
// A Batch (parallel.go) lists a DWARF file's compile units on many
// goroutines with NamedUnit's output: only the lookup of each type's key
// among those listed before is taken in unit order.
//
// reorganize.go is pahole's --reorganize (class__reorganize), which
// reorganized.go prints for -R and packable.go lists for -P. Where
// pahole's result is broken, btfkit differs (Options.Reorganize says
// how): structs pahole makes larger, and structs of 64 KiB or more, whose
// offsets pahole wraps (1.31 and 1.32 never finish -R of pglist_data, nor
// -P on a kernel that has it: -P on the kernel is tested against Debian's
// 1.24, which ends there).
//
// TypePrinter (emit.go) prints single types with the conf pahole's type
// emission passes (pfunct -b and --compile use it), keeping the unit's
// state between calls.
//
// This package must not know how BTF or DWARF is read or written, nor
// command lines (cmd/btfkit maps pahole's flags onto Options).
package layout
