/* Functions and variables as kernels have them: a per-CPU variable,
 * globals in .data, .bss and .rodata, a kfunc set in .BTF_ids (as
 * include/linux/btf_ids.h lays it out), and an optimized clone. */
struct kf_obj {
	long a, b;
};

int kf_percpu_counter __attribute__((section(".data..percpu"), used));
int kf_data_var = 3;
long kf_bss_var;
const char kf_rodata_var[16] = "read only";

int kf_plain(int x)
{
	return x + kf_data_var;
}

struct kf_obj *kf_arena_ret(struct kf_obj *o, int n)
{
	return o + n;
}

int kf_fast(int x)
{
	return x * 2;
}

/* Only o->a is used: gcc -O2 passes it alone (kf_clone.isra.0). */
static long __attribute__((noinline)) kf_clone(struct kf_obj *o, long unused)
{
	return o->a * 7;
}

long kf_use_clone(struct kf_obj *o)
{
	return kf_clone(o, 1) + kf_clone(o + 1, 2);
}

/* BTF_SET8_START(kf_set) with BTF_SET8_KFUNCS; BTF_ID_FLAGS(func, ...)
 * gives an (id, flags) pair per kfunc: kf_arena_ret with KF_ARENA_RET
 * (1 << 13), kf_fast with KF_FASTCALL (1 << 12). kf_not_kfunc is in a set
 * without the kfunc flag. */
__asm__(
	".pushsection .BTF_ids,\"a\"\n"
	".balign 4\n"
	"__BTF_ID__set8__kf_set:\n"
	".long 3, 1\n"
	"__BTF_ID__func__kf_plain__1:\n"
	".long 0, 0\n"
	"__BTF_ID__func__kf_arena_ret__2:\n"
	".long 0, 0x2000\n"
	"__BTF_ID__func__kf_fast__3:\n"
	".long 0, 0x1000\n"
	".size __BTF_ID__set8__kf_set, 32\n"
	"__BTF_ID__set8__other_set:\n"
	".long 1, 0\n"
	"__BTF_ID__func__kf_use_clone__4:\n"
	".long 0, 0\n"
	".size __BTF_ID__set8__other_set, 16\n"
	".popsection\n");
