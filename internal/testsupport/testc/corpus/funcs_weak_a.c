/* A weak default (see funcs_weak_b.c for the strong definition that
 * overrides it at link time). */
int __attribute__((weak, noinline)) fw_hook(int weak_arg)
{
	return weak_arg + 1;
}

int fw_call(int x)
{
	return fw_hook(x) * 2;
}
