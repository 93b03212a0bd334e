/* pfunct fixture, unit 2 of 2: names the first unit has too. */
struct point { int x, y; };
union num { int i; float f; double d; };

extern int ext_decl(int);
static int counter2;

static inline int add(int a, int b) { return a - b; }

static int dup_static(int v) { return v * 2 + counter2++; }

int shared(int x) { return x + 1; }

__attribute__((weak)) int vfn(int n, ...) { return n; }

int second(struct point *p, union num n)
{
	return add(p->x, n.i) + dup_static(p->y) + ext_decl(p->x) + shared(n.i);
}
