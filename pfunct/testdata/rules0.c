/* pfunct rules fixture (rules_test.go), unit 2, built with -O0: nothing is inlined. */
static inline int slow(int v)
{
	return v * 3;
}

int use_slow(int v)
{
	return slow(v) + 1;
}

static int dup(int v)
{
	return v - 2;
}

__attribute__((weak)) int shared_fn(int v)
{
	return dup(v) + 7;
}
