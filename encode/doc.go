// Package encode turns DWARF into BTF the way pahole -J does: each compile
// unit becomes a BTF fragment (types numbered from 1 in the unit, names as
// views of the reader's string sections), units are converted in parallel
// (dwarf.Walk), the fragments are merged in unit order as they come, their
// names interned once, and the result is deduplicated (btf/dedup).
//
// It owns pahole's encoding rules for types: which DWARF entries become
// which BTF kinds (INT and FLOAT from base types, with pahole's
// sanitising of odd sizes; PTR, CONST, VOLATILE, RESTRICT, TYPEDEF;
// STRUCT and UNION with bitfields in kind_flag form; FWD for declarations;
// ENUM and ENUM64 with their signedness; ARRAY with all dimensions folded
// into one element count and "int" as the index type; FUNC_PROTO for
// subroutine types; TYPE_TAG and DECL_TAG from btf_type_tag and
// btf_decl_tag annotations, LLVM and GNU style), and the BTF feature set
// (ParseFeatures) that switches them, one bit per decision.
//
// The conversion reads DWARF only through one small record, die, that any
// reader can fill; the readers live in their own files. The per-unit pass
// records every entry that matters in flat slices reused across units, so
// converting allocates nothing per entry. Output depends only on the input
// and the options: workers return fragments keyed by unit index, the merge
// walks units in order, and no map is iterated.
//
// Functions (FUNC and their FUNC_PROTOs) and variables (VAR, DATASEC) are
// to be added to the same per-unit pass: subprogram and variable entries
// get records of their own next to the type records, and a pass after the
// merge matches them against ELF symbols.
//
// This package must not know how DWARF is decoded (that is the dwarf
// package's; only the adapters fastdwarf.go and stddwarf.go see readers),
// how BTF is deduplicated (btf/dedup's API only), or how BTF is written to
// disk or into an ELF file.
package encode
