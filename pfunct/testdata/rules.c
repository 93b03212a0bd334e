/* pfunct rules fixture (rules_test.go), unit 1, built with -O2: functions whose listings follow from the source. */
struct point { int x, y; };
struct list { struct list *next; int v; };

static inline __attribute__((always_inline)) int twice(int v)
{
	return v * 2;
}

static __attribute__((noipa)) int kept(int v)
{
	return v + 1;
}

static int once(int v)
{
	return v - 3;
}

int labels(int a)
{
	if (a > 10)
		goto big;
	if (a < 0)
		goto neg;
	return a;
big:
	return 10;
neg:
	return 0;
}

int two_vars(struct point *p, long n)
{
	int a = p->x * n;
	int b = p->y + twice(a) + twice(n);

	return a + b + kept(b) + once(a);
}

typedef int count_t;

struct point *first_pt(struct point *p)
{
	return p;
}

count_t count(count_t c)
{
	return c + 1;
}

int list_len(struct list *l)
{
	int n = 0;

	for (; l; l = l->next)
		n++;
	return n;
}

static __attribute__((noipa)) int dup(int v)
{
	return v + 2;
}

__attribute__((weak)) int shared_fn(int v)
{
	return dup(v) * 2;
}
