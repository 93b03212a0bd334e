// Package downgrade rewrites BTF so that an older Linux kernel's
// BPF_BTF_LOAD accepts it: the BTFHub use case, one BTF made with today's
// features shipped to kernels that predate some of them.
//
// Each rewrite is one rule, named with the btf.Feature (and so the kernel
// release) that introduced what it removes; Rules lists them, and the
// table below is the same list:
//
//	feature         since  what an older kernel gets
//	vlen24          7.2    (no rewrite) a vlen over 65,535 or a kind over 31 cannot be
//	                       said in a 16-bit vlen and 5-bit kind: an error
//	layout          7.1    the kind layout section is dropped and the header is 24 bytes
//	tag-kind-flag   6.14   DECL_TAG and TYPE_TAG with kind_flag (attributes) are dropped
//	enum64          6.0    ENUM64 becomes an ENUM of the same size whose values keep their
//	                       low 32 bits (what pahole writes without enum64); ENUM loses its
//	                       kind_flag (signedness)
//	type-tag        5.17   TYPE_TAG is dropped
//	decl-tag        5.16   DECL_TAG is dropped
//	float           5.13   FLOAT becomes an INT of the same name and size, no encoding
//	global-func     5.6    global FUNC becomes static
//	datasec         5.2    (no rewrite) older targets are refused
//
// A dropped TYPE_TAG is replaced, in every reference, by the type it
// tags; the types after a dropped one move up (IDs are renumbered, every
// reference rewritten). libbpf's loader sanitizes BTF for old kernels in
// place instead (src/libbpf.c, bpf_object__sanitize_btf: TYPE_TAG becomes
// CONST, DECL_TAG an INT, FLOAT an empty STRUCT, ENUM64 a UNION), which
// keeps IDs but changes what the types say (a const that was not there);
// cilium/ebpf's marshal options make the same choices as libbpf. This
// package keeps the C meaning and gives up the IDs, which only the BTF's
// own references use.
//
// The package owns the rule table and the rewrite. It works on btf.Spec
// only and must not know where BTF comes from (DWARF, ELF) or how it is
// written; whether the result loads is btf.Spec.Check's (btf.ForKernel) and
// the kernel's business.
package downgrade
