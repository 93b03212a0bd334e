/* Structs of two words, passed in two registers, of which clang -O2
 * passes only the members the callee reads. */
struct pos { long x; long y; };
typedef struct { long lo; long hi; } range_t;
struct gap { char tag; long val; };

/* p: x alone (first word); q: both words; k after q. */
__attribute__((noinline)) static long step(struct pos p, struct pos q, int k)
{
	return p.x + q.x * q.y + k;
}

/* p: y alone (second word). */
__attribute__((noinline)) static long pick(struct pos p, long s)
{
	return p.y * s;
}

/* through a typedef of an anonymous struct: hi alone; unused is dead. */
__attribute__((noinline)) static long width(range_t r, int unused)
{
	return r.hi - 1;
}

/* val, after padding, alone. */
__attribute__((noinline)) static long value(struct gap g)
{
	return g.val + 3;
}

struct pos a, b;
range_t rg;
struct gap gp;
int n;
long m;

int main(void)
{
	return (int)(step(a, b, n) + pick(b, m) + width(rg, n) + value(gp));
}
