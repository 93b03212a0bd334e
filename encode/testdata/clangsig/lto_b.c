/* LTO fixture, second file (see lto_a.c). agg_in passes a struct of
 * which it reads one member. */
struct pt { int x, y; };
struct pair { long f1; long f2; };
int lto_a(int v, long w);
static __attribute__((noinline)) int helper(struct pt *p) { return p->x ^ p->y; }
int lto_inl(struct pt *p) { return p->x * 11 - p->y; }
__attribute__((noinline)) int lto_b(struct pt *p, int k) { return p->x * k + p->y + lto_a(k, k) + helper(p); }
int lto_c(struct pt *p) { return lto_inl(p + 1) + helper(p + 2); }
static __attribute__((noinline)) long agg_in(struct pair a, long x) { return a.f2 * x; }
long lto_agg(struct pair a, long x) { return agg_in(a, x) + 1; }
