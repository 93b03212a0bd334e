// Package encode turns DWARF into BTF the way pahole -J does.
//
// A caller encodes a file with EncodeFile (a vmlinux, a module, an object
// file; compressed modules too) and gets a *btf.Spec to write (Marshal,
// elfx.WriteSections) or check. EncodeSplit encodes a module against a
// base loaded and prepared once (LoadBase); EncodeBatch encodes many
// modules in one process. Options.Features are pahole's --btf_features
// (DefaultFeatures, ParseFeatures); Options.Report, a *Report, says which
// functions got a FUNC and which were left out and why. EachUnit and
// MapUnits hand a printer each unit's types unmerged, with their DWARF
// facts.
//
// How it is done: each compile unit becomes a BTF fragment (types numbered from 1 in the unit, names as
// views of the reader's string sections), units are converted in parallel
// (dwarf.Walk), the fragments are merged in unit order as they come, their
// names interned once, and the result is deduplicated (btf/dedup).
// A file whose units refer to each other (LTO: DW_FORM_ref_addr; dwz's
// partial units and alternate file) is converted as one unit, as pahole
// reads it (merged.go). A file whose every unit is of an excluded
// language gives ErrExcluded: pahole writes nothing then.
//
// It owns pahole's encoding rules for types: which DWARF entries become
// which BTF kinds (INT and FLOAT from base types, with pahole's
// sanitising of odd sizes; PTR, CONST, VOLATILE, RESTRICT, TYPEDEF;
// STRUCT and UNION with bitfields in kind_flag form; FWD for declarations;
// ENUM and ENUM64 with their signedness; ARRAY, one per dimension of a
// multi-dimensional array as pahole 1.32 writes them (each outer one an
// ARRAY of the next), with "int" as the index type; FUNC_PROTO for
// subroutine types; TYPE_TAG and DECL_TAG from btf_type_tag and
// btf_decl_tag annotations, LLVM and GNU style; the members of a Rust
// unit's structs in offset order, a DW_TAG_variant_part giving none), and
// the BTF feature set (ParseFeatures) that switches them, one bit per
// decision.
//
// The conversion reads DWARF only through one small record, die, that any
// reader can fill; the readers live in their own files. The per-unit pass
// records every entry that matters in flat slices reused across units, so
// converting allocates nothing per entry. Output depends only on the input
// and the options: workers return fragments keyed by unit index, the merge
// walks units in order, and no map is iterated.
//
// Functions (FUNC and their FUNC_PROTOs) and variables (VAR, DATASEC)
// are pahole's selection, the internal package funcvar
// (encode/internal/funcvar): each worker hands it every entry of its
// unit (the entry's funcvar.Entry, filled by funcvar for the entries it
// reads) and, once the unit's types have IDs, the unit's types
// to ask about (functypes.go: sizes, packed structs, members, IDs); the
// unit's candidates and variables travel to the merge in its fragment,
// and after the merge funcvar decides the functions against the ELF
// symbol table and appends what it keeps. Options.Report lists the
// functions left out and why. The ELF side (sections, symbols, .BTF_ids
// kfunc sets) comes from the one elfx.File an encode opens.
//
// The BTF EncodeFile and EncodeSplit return passes Check (the newest
// kernel's rules; a module's split BTF is checked after its dedup onto
// the base, its own types only):
// DWARF that lies (a member past its struct, a struct holding itself, a
// name that is no identifier, more entries than a vlen holds) gives an
// error naming the file and the type or unit, never BTF the kernel
// rejects when it loads it.
//
// EachUnit hands printers each unit's types unmerged, with the DWARF
// facts BTF cannot hold (facts.go, package dwarffacts), as pahole's DWARF
// loader has them; MapUnits also runs the printer's per-unit work in the
// workers (units.go).
//
// This package must not know how DWARF is decoded (that is the dwarf
// package's; only the adapter fastdwarf.go sees the reader, and the test
// file stddwarf_test.go adapts debug/dwarf as the oracle), which functions
// and variables pahole encodes (funcvar's), how BTF is deduplicated
// (btf/dedup's API only), how an ELF file is opened, decompressed or
// parsed (elfx's), where kernel modules are found (kmod's), or how BTF is
// written to disk or into an ELF file.
package encode
