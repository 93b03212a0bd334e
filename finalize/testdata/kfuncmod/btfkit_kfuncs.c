// SPDX-License-Identifier: GPL-2.0
/*
 * btfkit_kfuncs: kfuncs and BTF_IDs in a module, for scripts/finalize-check
 * (Linux 7.x). btfkit_kf_aux and btfkit_kf_meta take implicit arguments
 * (KF_IMPLICIT_ARGS): resolve_btfids gives them _impl twins and trims their
 * prototypes; btfkit_kf_old has its _impl in the source (the legacy case);
 * btfkit_kf_plain has none. The BTF_ID_LIST names types of vmlinux (found
 * in the base) and of this module, one that does not exist, and the
 * BTF_SET lists functions of both.
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/sched.h>

#ifndef KF_IMPLICIT_ARGS
#define KF_IMPLICIT_ARGS (1 << 16)
#endif

struct btfkit_kf_ctx {
	int a;
	long b;
};

__bpf_kfunc_start_defs();

__bpf_kfunc int btfkit_kf_aux(struct btfkit_kf_ctx *ctx, int x, struct bpf_prog_aux *aux)
{
	return ctx->a + x + (aux ? 1 : 0);
}

__bpf_kfunc void *btfkit_kf_meta(u64 size, void *meta__ign, const struct btf_struct_meta *meta, int tail)
{
	return meta ? (void *)meta : (void *)(unsigned long)(size + tail);
}

__bpf_kfunc int btfkit_kf_old_impl(int x, void *aux__prog)
{
	return x + (aux__prog ? 1 : 0);
}

__bpf_kfunc int btfkit_kf_old(int x, struct bpf_prog_aux *aux)
{
	return btfkit_kf_old_impl(x, aux);
}

__bpf_kfunc long btfkit_kf_plain(struct btfkit_kf_ctx *ctx)
{
	return ctx->b;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(btfkit_kfunc_ids)
BTF_ID_FLAGS(func, btfkit_kf_plain, KF_RET_NULL)
BTF_ID_FLAGS(func, btfkit_kf_aux, KF_IMPLICIT_ARGS)
BTF_ID_FLAGS(func, btfkit_kf_meta, KF_IMPLICIT_ARGS | KF_ACQUIRE | KF_RET_NULL)
BTF_ID_FLAGS(func, btfkit_kf_old, KF_IMPLICIT_ARGS)
BTF_ID_FLAGS(func, btfkit_kf_old_impl)
BTF_KFUNCS_END(btfkit_kfunc_ids)

BTF_ID_LIST(btfkit_type_ids)
BTF_ID(struct, task_struct)
BTF_ID(struct, btfkit_kf_ctx)
BTF_ID(struct, btfkit_no_such_struct)
BTF_ID(func, btfkit_kf_plain)

BTF_SET_START(btfkit_func_set)
BTF_ID(func, btfkit_kf_plain)
BTF_ID(func, btfkit_kf_aux)
BTF_ID(func, btfkit_kf_old_impl)
BTF_SET_END(btfkit_func_set)

static const struct btf_kfunc_id_set btfkit_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &btfkit_kfunc_ids,
};

static int __init btfkit_kfuncs_init(void)
{
	pr_info("btfkit_kfuncs: %u %u\n", btfkit_func_set.cnt, btfkit_type_ids[0]);
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL, &btfkit_kfunc_set);
}

static void __exit btfkit_kfuncs_exit(void)
{
}

module_init(btfkit_kfuncs_init);
module_exit(btfkit_kfuncs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kfuncs and BTF_IDs for btfkit's finalize check");
