// Package layout prints struct and union layouts the way pahole does:
// members with their offsets and sizes, bitfields, nested anonymous
// structs and unions, holes, bit holes, trailing padding, cache line
// boundaries, the summary block, and the __packed__ and __aligned__
// attributes pahole infers. Its output is byte for byte pahole 1.31's.
//
// It reads the btf model only (btf.Spec), so BTF from any source and DWARF
// converted by package encode share one printer. What DWARF knows and BTF
// does not (alignment attributes, array dimensions, types defined inside
// functions) comes beside the Spec in a *dwarffacts.Facts; with facts the
// output is pahole's for DWARF input, without them pahole's for BTF (-F
// btf), which infers alignments from the offsets.
//
// A Listing is one run of pahole over its inputs: each input (a BTF, a
// member of a BTF archive, or one DWARF compile unit) is handed to Unit in
// order, as pahole's loader hands each unit to its printing callback; the
// Listing remembers which types were printed and which -C names are still
// wanted. Finish reports what was never found.
//
// The files follow pahole's concerns: class.go builds a type's members
// and computes holes, natural alignment and the packed/aligned inference
// (with pahole's integer widths and its order-dependent caching); names.go
// spells types as pahole does; member.go prints one member; print.go
// prints structs, unions, enums and typedefs with the summary; listing.go
// walks an input's types and finds -C names; filter.go selects types
// (pahole's class__filter and cu__filter: -a, -A, -x, -y, -D, -X, -H,
// -B, -z, --padding_ge, --packed, --structs, --unions, the flexible array
// filters, --show_private_classes); formatters.go prints what is printed
// per type (the layout, or -s, -n, -N, -z's one-line fields); find.go
// lists containers (-i, -d), pointers (-f) and the enum of an enumerator
// (--contains_enumerator); structures.go remembers the types listed, so
// that a type defined alike in many DWARF units is listed once, and
// sorts them (--sort); options.go has the options.
//
// Debian's pahole 1.24 and pahole 1.31 differ on these options: 1.24 has
// no --padding_ge (1.31 has no --padding either; its argp reads
// --padding=N as that unique prefix), no --with_embedded_flexible_array
// and no --contains_enumerator; with -C, 1.24 prints each type's layout
// where 1.31 prints what -s, -n or -N print, and an empty line. The
// others select and list the same types; where 1.31 prints a layout
// differently (the "XXX last struct has" notes it added), the listings
// differ by that. The tests (filter_test.go, filter_kernel_test.go) use
// 1.24 at test time where the output agrees, else 1.31's committed output.
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
// (-w), flat_arrays.go, fixup_silly_bitfields.go and compile.go
// (--compile) hold one option each. Of these, pahole 1.24 and 1.31 print
// -E, -w and --compile differently (the tests hold them to committed
// 1.31 output); -p, -r, -M, -I, -l, --suppress_aligned_attribute,
// --suppress_force_paddings, --suppress_packed, --fixup_silly_bitfields,
// --classes_as_structs and --flat_arrays alike (on types where the two
// agree without options; -p differs on some kernel types). --compile
// leaves out one line pahole 1.31 prints, a typedef of a compiler builtin
// (__builtin_va_list), so that clang compiles the output too.
//
// A type's text is written out while it is printed (flush.go): with -p or
// -w, pahole prints gigabytes for one struct of a kernel.
//
// reorganize.go is pahole's --reorganize (class__reorganize), which
// reorganized.go prints for -R and packable.go lists for -P. Debian's
// pahole 1.24 and 1.31 print the same for -R and -P on structs under
// 64 KiB; 1.24 crashes on -S after the first move, so -S is tested
// against committed 1.31 output. Where 1.31's result is broken, btfkit
// differs (Options.Reorganize says how): structs pahole makes larger,
// and structs of 64 KiB or more, whose offsets pahole wraps (1.31 never
// finishes -R of pglist_data, nor -P on a kernel that has it).
//
// TypePrinter (emit.go) prints single types with the conf pahole's type
// emission passes (pfunct -b and --compile use it), keeping the unit's
// state between calls.
//
// This package must not know how BTF or DWARF is read or written, nor
// command lines (cmd/btfkit maps pahole's flags onto Options).
package layout
