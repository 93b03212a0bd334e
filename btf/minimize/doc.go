// Package minimize makes the minimal BTF that a set of BPF objects needs
// for their CO-RE relocations against one kernel: what `bpftool gen
// min_core_btf INPUT OUTPUT OBJECT...` writes (BTFHub ships such files for
// kernels without BTF, and libbpf loads one through btf_custom_path), plus
// the same for the kernel's modules (split BTF against the minimized
// vmlinux BTF) and for many kernels with the objects read once.
//
// A caller reads each object once (LoadObject: its .BTF and the CO-RE
// relocation records of its .BTF.ext), then calls Minimize for each kernel
// with that kernel's vmlinux BTF and, optionally, module BTFs split against
// it. The result is a new base Spec and one split Spec per module.
//
// How, in bpftool's terms (bpftool src/gen.c btfgen_*, libbpf
// src/relo_core.c bpf_core_calc_relo_insn and src/libbpf.c
// bpf_core_add_cands; the facts are theirs, the code is this package's):
//
//   - Each relocation's local type (its record's type ID in the object's
//     BTF) gets candidates: the target types of a compatible kind (the
//     same kind; ENUM and ENUM64 count as one) whose names agree with the
//     local name up to its "essential" part, the name without a ___flavor
//     suffix ("task_struct___old" looks for "task_struct"). vmlinux is
//     searched first; the modules, in the order given, only when vmlinux
//     has no candidate, as libbpf and the kernel search them. Candidates
//     are cached per object and local type, and a relocation that matches
//     some of them drops the others for the later relocations of that
//     type, as libbpf does.
//   - The local access string ("0:1:2") is parsed into a spec and matched
//     against each candidate: fields by name through anonymous members,
//     array indexes within bounds (flexible arrays excepted), field types
//     compatible by libbpf's rules; type relocations by
//     bpf_core_types_are_compat or, for TYPE_MATCHES, bpf_core_types_match;
//     enumerator relocations by the enumerator's essential name. The
//     first matching candidate is the target; every other match must give
//     the same result (bit offset, value, poisoning) or the relocation is
//     ambiguous, an error, as in libbpf.
//   - The target spec decides what is kept. Field relocations keep the
//     root type and, along the target's path, each struct or union member
//     walked through (anonymous ones included) and its type; the types a
//     kept type refers to are kept through typedefs, qualifiers, arrays and
//     function prototypes but not through pointers (a pointer to a type
//     nothing else keeps becomes a pointer to void) nor into struct and
//     union members. Type-based relocations keep the type and follow
//     pointers too, members excepted (a struct comes out empty, with its
//     size); TYPE_MATCHES keeps every member of the structs it reaches,
//     except behind a pointer; enumerator relocations keep the whole enum.
//     Local type ID relocations need nothing.
//   - The kept types are written in their original order, renumbered from
//     1, structs and unions with their kept members only (kind_flag set
//     when one of them is a bitfield), every other type as it was; strings
//     are added in the order libbpf's btf__add_* functions add them. A
//     module's kept types follow, renumbered after the minimized base, in
//     a split BTF of its own; the base types they refer to are kept in the
//     base.
//
// Measured against: bpftool gen min_core_btf of Debian 12 (7.1, libbpf
// 1.1) and of Debian sid (7.8, libbpf 1.8) on BPF objects clang compiles
// at test time, with field, type and enumerator relocations of every kind;
// `btfkit diff` of the two outputs must be empty, and the bytes are bpftool
// 7.1's (cmd/btfkit/minimize_test.go). The same holds for the kernel's own
// CO-RE selftests (every test_core_reloc program against its
// btf__core_reloc targets, the error cases failing in both;
// minimize_selftests_test.go, when a Linux source tree is at hand), and
// for every program of Linux 6.12's BPF selftests that clang 14 compiles
// (714 of 798), each minimized alone for the 6.1 and the 6.12 vmlinux BTF
// with both bpftools: 2,836 runs equal, 20 failing in both, none
// disagreeing (scripts/minimize-selftests, 2026-12-02). Module
// output has no bpftool counterpart: it is checked by `btfkit check
// --base` and by matching each relocation again against the minimized
// BTF, which must give the values it gives against the full BTF.
//
// This package does not know where BTF comes from (package input) or how
// it is written; it reads the objects' ELF sections through elfx.
package minimize
