/* Aggregates clang passes otherwise: four ints in two words, two doubles
 * in SSE registers, a nested struct, a union and a struct too large for
 * registers (memory). */
struct quad { int a, b, c, d; };
struct vec2 { double x; double y; };
struct inner { int lo, hi; };
struct outer { struct inner in; long z; };
union wide { long l; char bytes[24]; };
struct triple { long u, v, w; };

__attribute__((noinline)) static int corners(struct quad q)
{
	return q.a + q.c;
}

__attribute__((noinline)) static double first(struct vec2 v, int dead)
{
	return v.x * 2.0;
}

__attribute__((noinline)) static long outer_z(struct outer o)
{
	return o.z + 7;
}

__attribute__((noinline)) static long from_union(union wide w, int dead, int k)
{
	return w.l + k;
}

__attribute__((noinline)) static long mid(struct triple t, long s)
{
	return t.v * s;
}

struct quad q;
struct vec2 v;
struct outer o;
union wide w;
struct triple t;
int i, j;
long s;

int main(void)
{
	return corners(q) + (int)first(v, i) + (int)outer_z(o) + (int)from_union(w, i, j) + (int)mid(t, s);
}
