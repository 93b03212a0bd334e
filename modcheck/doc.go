// Package modcheck checks the BTF of a kernel's modules as the target
// kernel's module loader would take it, before the modules ship:
//
//	base, err := modcheck.LoadBase("vmlinux")   // prepared once
//	mods, err := kmod.FindAll([]string{"/lib/modules/6.1.0-57-cloud-amd64"})
//	modcheck.Run(base, mods, modcheck.Options{Jobs: 2}, func(r modcheck.Result) { ... })
//
// For each module (.ko, .ko.xz, .ko.zst, .ko.gz; elfx decompresses them):
//
//  1. Its .BTF is split BTF against one vmlinux's BTF. Nothing in it says
//     which, so the fit is checked (Rule BaseMismatch): every name offset
//     of the module's own types must be the start of a string of the base
//     or of the module's own table (libbpf and pahole write no other), and
//     every type reference must land inside base + module, on a kind that
//     fits where it is used (a FUNC on a FUNC_PROTO, a member on a sized
//     type, a DECL_TAG on a struct, union, FUNC, VAR or TYPEDEF with its
//     component inside it, an array's index on an INT). BTF built against
//     another vmlinux misses such fits by the hundreds; one miss is
//     reported as the problem of its type. A module with .BTF.base (a
//     distilled base) is checked against that section instead and then
//     relocated onto the base as the kernel does (btf/distill; Rule
//     Relocation on failure).
//  2. The BTF, relocated where it has a .BTF.base, is checked by the
//     kernel verifier's rules for the target kernel (btf.CheckRaw with
//     btf.ForKernel).
//  3. .BTF_ids (finalize.ReadIDs): every struct, union, typedef and func
//     entry must name a type of that kind in the module's BTF or its base
//     (resolve_btfids' "unresolved symbol"; the base is .BTF.base where
//     the module has one, as resolve_btfids resolves such a module), and
//     the ID the build wrote for it must be a type of that kind and name,
//     each set's count word the number of its entries (Rule BTFIDs).
//  4. Kfuncs: from Linux 6.11 (the kernel's Makefile.btf passes
//     --btf_features=decl_tag_kfuncs to pahole 1.26 and later) pahole tags
//     every FUNC whose name a BTF_SET8 with BTF_SET8_KFUNCS in its flags
//     lists with a DECL_TAG "bpf_kfunc"; for such target kernels a kfunc
//     FUNC without one is a problem (Rule KfuncTag).
//
// Results come back in module order whatever the number of workers; the
// base is read and indexed once. It reads modules through elfx (one
// mapping gives .BTF, .BTF.base and .BTF_ids) and knows nothing of
// DWARF or of how BTF is encoded.
package modcheck
