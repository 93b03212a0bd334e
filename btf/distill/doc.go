// Package distill makes and uses distilled base BTF, the .BTF.base section
// pahole writes into a kernel module with --btf_features=distilled_base so
// that the module's BTF can be used with a kernel whose vmlinux BTF is not
// the one the module was built against (out-of-tree modules): Distill is
// libbpf's btf__distill_base, Relocate its btf__relocate.
//
// A module's BTF is split BTF: it refers to vmlinux types by ID, and those
// IDs change with every kernel build. Distill replaces the base by a small
// one that keeps of each vmlinux type the module uses only what identifies
// it: INT, FLOAT and FWD as they are, named STRUCT and UNION as an empty
// type of the same name, kind and size, named ENUM and ENUM64 as an empty
// ENUM of the same name and size. Everything else the module uses from the
// base (pointers, arrays, typedefs, qualifiers, function prototypes, type
// tags, anonymous structs, unions and enums) is copied into the module's
// own types, after them. Relocate maps each distilled base type onto the
// type of the same name (and kind, and size where that decides) of a real
// base and renumbers the split BTF onto it.
//
// Rebase moves a module's BTF onto a new base from either kind of old base
// (its distilled one, or the complete BTF it was made against, which is
// distilled first and, knowing the members, also checked for layout
// changes of what the module holds by value): `btfkit rebase`. A Target
// is a new base prepared once for many modules (Relocate and Rebase
// without one index the base on each call).
//
// The rules, including which mismatches are errors, are libbpf's
// (src/btf.c btf__distill_base, src/btf_relocate.c); the output is laid out
// as libbpf lays it out, type for type and string for string. This package
// must not know where BTF comes from or how it is written.
package distill
