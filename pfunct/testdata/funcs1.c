/* pfunct fixture, unit 1 of 2: functions of every shape pfunct prints. */
#include <stddef.h>
#include <stdbool.h>

#ifdef __clang__
#define TAG(x) __attribute__((btf_decl_tag(x)))
#else
#define TAG(x)
#endif

struct point { int x, y; };
struct holes { char c; long l; short s; };
typedef struct point point_t;
typedef struct { int a; char b; } anon_t;
typedef enum { AE_ONE, AE_TWO } anon_enum_t;
union num { int i; float f; double d; };
enum color { RED, GREEN = 5, BLUE };
typedef int (*callback_t)(void *, int);
struct opaque;
typedef struct opaque opaque_t;
struct list { struct list *next; struct point *pt; callback_t cb; union num n; };
struct bits { unsigned a:3, b:5; int c; };
struct with_anon { int kind; union { int i; long l; }; struct { char c1, c2; } pair; };

extern int ext_decl(int);
extern int shared(int);
static int counter;
int global_var = 3;

static inline int add(int a, int b) { return a + b; }

static int helper(struct point *p)
{
	int s = 0;

	for (int i = 0; i < 3; i++) {
		int t = i * 2;
		s += t + p->x;
	}
	return s;
}

static int dup_static(int v) { return v + counter++; }

int vfn(int n, ...) { return n + add(n, 2); }

int labels(int x)
{
	if (x > 10)
		goto out;
	{
		int y = x * 2;
		if (y > 5)
			goto inner;
		x += y;
	inner:
		x++;
	}
	x = add(x, 3);
out:
	return add(x, 1);
}

point_t ret_struct(point_t p) { int q = add(p.x, p.y); p.x = q; return p; }

union num ret_union(union num v, enum color c) { v.i += c; return v; }

void *ret_ptr(const char *s, void (*cb)(int, void *), int arr[4]) { cb(arr[0], (void *)s); return (void *)s; }

const char *const *ret_cpp(char *const *pp, volatile int *vp, int *restrict rp) { *rp = *vp; return (const char *const *)pp; }

anon_t ret_anon(anon_t a, anon_enum_t e) { a.a += e; return a; }

bool flag(bool b, _Bool c) { return b && c; }

long double ldbl(long double x, float f, double d) { return x + f + d; }

__int128 big(unsigned __int128 u) { return (__int128)(u >> 3); }

opaque_t *opq(opaque_t *o, struct holes h) { return h.c ? o : NULL; }

size_t sum_list(struct list *l)
{
	size_t s = 0;

	while (l) {
		s += add(l->pt->x, l->pt->y);
		if (l->cb)
			s += l->cb(l, l->n.i);
		l = l->next;
	}
	return s;
}

int bitsum(struct bits *b, struct with_anon *w) { return b->a + b->b + b->c + w->i + w->pair.c1; }

enum color next_color(enum color c) { return c == BLUE ? RED : c + 1; }

int kr() { return counter; }

TAG("tag_a") TAG("tag_b") int tagged(int TAG("parm_tag") arg) { return arg * 7; }

void nested_decl(void)
{
	extern int ext2(void);
	counter += ext2();
}

#ifndef __clang__
int outer(int x)
{
	int inner_fn(int y) { return y + x; }
	return inner_fn(x) + inner_fn(1);
}
#endif

static inline long a_function_name_much_longer_than_thirty_one_characters(long v) { return v * 3 + 1; }

long long_names(long v)
{
	return a_function_name_much_longer_than_thirty_one_characters(v) +
	       a_function_name_much_longer_than_thirty_one_characters(v + 1);
}

int call_many(int x)
{
	struct point p = { x, x + 1 };
	static int calls;

	calls++;
	return helper(&p) + add(x, 1) + dup_static(x) + ext_decl(x) + shared(x) + labels(x) + calls;
}
