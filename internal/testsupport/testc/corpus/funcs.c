/* Functions: global, static, with struct arguments, optimizable clones. */
struct pair {
	long a, b;
};

struct big {
	long v[8];
};

static int __attribute__((noinline)) helper_static(int x, int unused)
{
	return x * 3;
}

int global_func(int a, const char *s, struct pair p)
{
	return a + s[0] + (int)p.a + helper_static(a, 7);
}

long take_big(struct big b)
{
	return b.v[0] + b.v[7];
}

static long __attribute__((noinline)) constprop_me(long x, long k)
{
	return x * k + 1;
}

long use_constprop(long x)
{
	return constprop_me(x, 17) + constprop_me(x + 1, 17);
}

void varargs_func(int n, ...)
{
	(void)n;
}

void no_params(void)
{
}

int __attribute__((weak)) weak_func(int x)
{
	return x;
}

int global_counter;
static int static_counter;
int *counter_ptr = &static_counter;
const char *const greeting = "hello";
