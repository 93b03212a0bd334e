// Package frombtf is the BTF-archive route to a file's BTF: what
// `pahole -J -F btf` does in a kernel built with BTF per object
// (KCFLAGS=-gbtf). The linker, unaware of BTF, concatenates the objects'
// .BTF sections into the linked file's .BTF, one blob per object in link
// order (a BTF archive). EncodeFile reads every member, fixes what the
// compiler's BTF gets wrong for the kernel and takes out its functions
// and variables; merges the members in order (libbpf's btf__add_btf) and
// deduplicates; decides the functions and variables again against the
// file's ELF symbol table with the DWARF route's rules (package
// encode/internal/funcvar) and adds those kept; and deduplicates once more. No
// DWARF is read. A plain (single) .BTF goes the same way: it is
// re-deduplicated; so does BTF split against the base the result is split
// against. A file that has a .BTF.archive section (ArchiveSection: where
// pahole -J -F btf keeps the archive it replaced in place) is read from
// there instead, so that a module can be encoded again against a new
// vmlinux, as a kernel build does when vmlinux changes.
//
// The work is spread over the jobs by groups of 32 consecutive members
// (groupSize, fixed so that the output does not depend on the number of
// jobs): each group's members are parsed, fixed, merged and deduplicated
// in parallel with the other groups, without resolving FWDs by name, which
// only the last deduplication does, over the merged groups (in member
// order), when every definition is there. Deduplicating a group's members
// first gives the types deduplicating them all at once gives (checked on
// the 6.12 archive with btfkit diff); the last deduplication sees a small
// fraction of the archive's types (60 k of 894 k on the 6.12 archive).
//
// A member is copied as few times as its rules allow: parsed, fixed in
// place (copied once more only when a rule reshapes records: FLOAT or
// ENUM64 without their feature), and its kept types appended straight
// to its group's dedup.Builder, IDs renumbered and strings interned on
// the way, where the group is deduplicated in place; there is no Spec
// per member in between. The types a rule drops (TYPE_TAGs and DECL_TAGs
// without their feature) are left out by that append, as are FUNCs,
// VARs, DATASECs and what belongs to them. Its FUNCs and VARs are
// recorded by name with their strings copied out, so that its parsed
// tables are garbage once the member is appended; once the ELF symbol
// table has been read (the first job, beside the groups), FUNCs whose
// name is no ELF function, and declarations (unnamed parameters,
// funcvar.UnnamedParams), are not recorded at all.
//
// The groups are merged into one Spec in member order while the others
// load (dedup.Merger): the job that finishes the next group in order
// merges it, and every loaded group after it, while the other jobs go
// on loading. That job also scans the group's types for the FWDs that
// are enums (a group's types refer only to its own) and, once the ELF
// symbols are read, hands the group's functions to funcvar in member
// order (their names interned in the merged string table, where the
// last deduplication takes them from). What remains serial after the
// last group (Stats.SerialCPU) is turning those FWDs, placing the
// variables by their ELF symbols, the decisions on functions
// (funcvar.Selection.Finish) and the last deduplication.
//
// The aim is the DWARF route's BTF (package encode) for the same file:
// the same types in every kind but FUNC, FUNC_PROTO, VAR and DATASEC,
// whose differences have causes BTF cannot carry (see below).
//
// # Rules
//
// Per member, before the merge:
//
//   - INT: the CHAR bit of the encoding is cleared. gcc 12 writes
//     SIGNED|CHAR for char and signed char, which the kernel rejects, and
//     CHAR for unsigned char; the DWARF route writes SIGNED, SIGNED and 0.
//   - FWD: the size/type word is zeroed (gcc 12 leaves garbage there; the
//     kernel requires 0).
//   - ENUM of no values and size 0, what gcc 14 and 15 write for an enum
//     only declared ("enum foo;"), which the kernel refuses ("Unexpected
//     size"): size 4, the forward-declared ENUM the DWARF route, pahole
//     and libbpf's btf__add_fwd write.
//   - ARRAY: the index type is the member's INT "int" (added to the
//     member if it has none), as the DWARF route writes every array;
//     gcc writes its sizetype ("long unsigned int").
//   - ARRAY dimensions: a multi-dimensional array is one ARRAY per
//     dimension, outermost first (`int a[2][3]`: an ARRAY of 2 of an
//     ARRAY of 3 of int), as pahole 1.32 and the DWARF route write it. gcc
//     before 14 writes the same chain of ARRAYs with the lengths in
//     reverse order (GCC PR debug/114186), which BTF cannot tell from a
//     right one; so when the file's .comment names gcc and only releases
//     before 14, the lengths along each chain are reversed (a chain: an
//     ARRAY and, while its element is an ARRAY no other type refers to,
//     that element; gcc makes one such chain per DWARF array type).
//   - Features the DWARF route would not encode are undone: without
//     float a FLOAT becomes an INT of its size (encoding 0), without
//     enum64 an ENUM64 becomes an ENUM of its size with the low 32 bits of
//     each value, without type_tag a TYPE_TAG is looked through, without
//     decl_tag DECL_TAGs are dropped.
//
// After the merge, a FWD of a struct that names an enum (an ENUM of that
// name exists and no struct) or that a type uses by value (a parameter,
// a member: only an enum can be, and the kernel refuses a FWD there)
// becomes the forward-declared ENUM (vlen 0, size 4) the DWARF route
// writes for "enum foo;", which gcc 12 writes as a struct FWD (gcc 14
// and 15 write an ENUM of size 0: above).
//
// Before the merge, FUNC, VAR and DATASEC records are taken out with the
// DECL_TAGs that point at them and the FUNC_PROTOs only FUNCs refer to;
// they are the compiler's view of each object (declarations, variables of
// every section, offsets 0 and sizes 0 in gcc 12's DATASECs). Then, in
// member order, as package funcvar's AddFunc and AddVar describe:
//
//   - a FUNC is kept only when its name is a function of the ELF symbol
//     table, its symbols are at one address, its prototypes agree between
//     members (consistent_func) and its symbols are not all optimized
//     clones; kfuncs of .BTF_ids get bpf_kfunc (and bpf_fastcall)
//     DECL_TAGs, arena kfuncs their address_space TYPE_TAGs (attributes).
//     FUNC_PROTO and FUNC follow all types in name order, as in the DWARF
//     route.
//   - a VAR is placed by its ELF symbol (a global symbol of its name in
//     the section its DATASEC names; for a static one the n-th local
//     symbol of that name and section, n counting the members before that
//     define a static of that name there), at the symbol's offset in the
//     section; only variables of the per-CPU section are kept, or of
//     every section with global_var; of several VARs at one place (a
//     global that other objects declare) the first whose type is the
//     symbol's size is kept. One DATASEC per section, its size the end of
//     its last variable, as the DWARF route writes them (libbpf makes the
//     same fix at load time from the section and symbol tables).
//
// What BTF cannot carry, and so this route cannot do: parameter
// locations (pahole's checks for optimized-out, reordered or
// unexpectedly placed parameters, and true_signature), function
// addresses (a clone at its own address), the source language
// (--lang_exclude). A gcc 12 ENUM also cannot say whether a value with
// the top bit set is negative, and an 8-byte enum keeps only the
// enumerators that fit 32 bits; newer compilers write ENUM64 and the
// signedness flag.
//
// This package must not know how DWARF is read or types are converted
// from it (encode's), how functions are decided (funcvar's), how members
// are merged and deduplicated (btf/dedup's), or how an ELF file is opened
// (elfx's).
package frombtf
