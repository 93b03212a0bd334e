/* LTO fixture, first file (with lto_b.c; see encode/lto131_test.go).
 * Linked with -flto, lto_inl of lto_b.c is inlined into lto_main here:
 * the inlined copy points to its abstract instance in the other unit
 * (DW_FORM_ref_addr), and some types are referred to across units. Both
 * files define a static helper, which the link renames in one of them.
 * gcc -flto puts the out-of-line code of both files in a unit of its
 * own whose instances point to their abstract origins in these units. */
struct pt { int x, y; };
struct pair { long f1; long f2; };
int lto_b(struct pt *p, int k);
int lto_inl(struct pt *p);
long lto_agg(struct pair a, long x);
static __attribute__((noinline)) int helper(int v, int unused) { return v * 5 + 1; }
__attribute__((noinline)) int lto_a(int v, long w) { return v * 3 + (int)w; }
int lto_main(int n)
{
	struct pt p = {n, n + 1};
	struct pair q = {n, 2 * n};
	return lto_b(&p, n) + lto_a(n, 7) + lto_inl(&p) + helper(n, 3) + (int)lto_agg(q, n);
}
