/* The strong definition of fw_hook (see funcs_weak_a.c). */
int __attribute__((noinline)) fw_hook(int strong_arg)
{
	return strong_arg - 1;
}
