// Package finalize is the BTF stage of the Linux kernel's resolve_btfids
// (tools/bpf/resolve_btfids/main.c, `resolve_btfids --btf BTF ELF`) as of
// Linux 7.2: what a 7.x build does to pahole's BTF (the kernel's gen-btf.sh)
// before it is linked into vmlinux or objcopied into a module, and the
// .BTF_ids contents it computes against the result.
//
// Linux 7.0 moved these steps out of pahole into resolve_btfids; they
// change between releases, and this package follows 7.2's source (the
// Debian linux-source-7.2 7.2.13 tree; scripts/kernel-source fetches it):
//
//  1. btf2btf: every FUNC tagged "bpf_kfunc" (a DECL_TAG without
//     kind_flag, component -1) whose name a __BTF_ID__func__NAME__N
//     symbol of .BTF_ids lists, inside a BTF_SET8 whose (id, flags) pair
//     has KF_IMPLICIT_ARGS (1<<16) in its flags, is rewritten: a FUNC
//     NAME_impl with the original prototype and linkage is added (unless
//     a FUNC of that name exists already, the "legacy" kfuncs whose _impl
//     is in the source), with a copy of every other DECL_TAG of NAME
//     (kind_flag and component kept); then a new FUNC_PROTO with the
//     parameters before the first implicit one (a pointer, through
//     modifiers, to struct bpf_prog_aux or struct btf_struct_meta), and
//     NAME's FUNC points at it. Types and strings are appended as libbpf's
//     btf__add_* append them.
//  2. For out-of-tree modules (--distill_base): the base is distilled
//     (libbpf's btf__distill_base; btf/distill), with the 32-byte headers
//     7.2's libbpf gives new BTF.
//  3. The own types are sorted by name (sort_btf_by_name; btf.SortByName).
//  4. .BTF_ids: every __BTF_ID__{struct,union,typedef,func}__NAME__N word
//     gets the ID of the first type of that kind and name (base types
//     first), every set's count word its count (from the symbol's size),
//     and the IDs of each BTF_SET and the (id, flags) pairs of each
//     BTF_SET8 are sorted by ID (stably, as glibc's qsort sorts).
//
// Checked against the kernel's own tool (scripts/finalize-oracle builds a
// small 7.2.13 with sid's pahole 1.32 and keeps each BTF step's input;
// scripts/finalize-check compares): vmlinux (35,004 types in, 54 _impl
// twins added, 35,120 out; 1,498,166 bytes) and its 2,468-byte .BTF_ids,
// four in-tree modules (sorted only: none has .BTF_ids), and two
// out-of-tree modules with their distilled bases, one of them
// (finalize/testdata/kfuncmod) with kfuncs with and without KF_IMPLICIT_ARGS, a
// legacy _impl, a BTF_ID_LIST naming base, own and missing types and a
// BTF_SET, are byte for byte what resolve_btfids writes (with and without
// --distill_base) and what the build embedded.
//
// Where the kernel's tool is silent or warns (an unresolved name, a name
// found twice), Finalize records a warning and goes on as it does.
package finalize
