// Package funcvar is pahole 1.32's selection of functions and variables
// for BTF (FUNC, FUNC_PROTO, VAR, DATASEC and their DECL_TAGs), split out
// of the DWARF→BTF type conversion that package encode does around it.
// It is the encoder's own protocol, internal to encode and encode/frombtf:
// a caller sees only what an encoding decided, as an encode.Report (which
// is this package's Report).
//
// It works in two steps, as the encoder does:
//
//   - Per unit, in the encoder's workers: a Unit records the unit's
//     top-level subprograms, their parameters and the top-level
//     variables (the walk hands those inside namespaces and types as
//     top-level too; such variables, InNamespace, only name definitions)
//     from Entry records (any DWARF reader can fill one; Read
//     fills it from the dwarf package's reader), then, once the unit's
//     types have BTF IDs, Finish applies the per-unit rules and hands the
//     merge the unit's Candidates: out-of-line instances take names and
//     types from their abstract origins (in another unit too, as LTO
//     leaves them); parameter locations are checked against the calling
//     convention (optimized-out parameters, unexpected registers, packed
//     structs on the stack, reordered parameters); with true_signature,
//     a parameter passed as one member of its struct becomes
//     param__member; a variable is kept when it lives in an encoded
//     section, at its symbol's place.
//   - After the merge, on one goroutine: a Selection takes every unit's
//     Candidates in unit order (Add appends the variables at once, one
//     VAR per place), then Finish decides each function name once
//     against the ELF symbol table (ReadELF): consistent prototypes, one
//     address per name, no optimized clone with optimized-out
//     parameters; it appends the FUNC_PROTOs, FUNCs and DECL_TAGs of the
//     functions kept, in name order (bpf_kfunc and bpf_fastcall tags for
//     the kfunc sets of .BTF_ids), and one DATASEC per section. A Report
//     says which functions were left out and why.
//
// The interface to the encoder is narrow: Types is all the rules ask of
// a unit's types (an entry's tag, name, size and type; a variable's size;
// whether a struct is packed; the member at an offset; BTF IDs, string
// references and GNU decl tag chains of the unit's fragment), and Options
// are the rules' switches, which the encoder derives from its features.
//
// This package must not know how DWARF types become BTF types (encode's),
// how the fragments are merged or deduplicated, how DWARF is decoded
// beyond the attributes and location expressions of its own entries (the
// dwarf package's), or how an ELF file is opened and its symbols read
// (elfx's). It knows pahole's --btf_features only as Options.
package funcvar
