/* pdwtags's fixture: a tag of each kind pahole's DWARF loader reads in C
 * (typedefs, enums, bitfields, unions, anonymous and nested structs,
 * multi-dimensional and flexible arrays, qualifiers, function pointers,
 * types defined inside functions and lexical blocks, inline expansions). */
#include <stddef.h>
typedef unsigned int u32;
typedef u32 (*cb_t)(void *ctx, const char *fmt, ...);
enum color { RED, GREEN = 5, BLUE = -1 };
enum big { BIG = 0x100000000LL };
struct bf { unsigned a:3; u32 b:5; enum color c:2; int d; char e:1; long long f:40; };
union num { int i; float f; struct { short lo, hi; } parts; };
struct outer {
	struct inner { int x; } in;
	union { int u1; char u2[4]; };
	struct { long l; } anon;
	int matrix[2][3];
	const volatile int cv;
	_Atomic int at;
	cb_t cb;
	void (*handlers[4])(int);
	char tail[];
};
struct bf gbf;
union num gnum;
struct outer *gouter;
long unsigned int lu;
_Bool flag;
float fl; double dl; long double ld;
int *restrict rp;
const char *const msgs[] = { "a", "b" };
extern int ext_decl;
static inline int square(int x) { return x * x; }
static int counter;
void vfn(void) { struct local { int q; } l; l.q = 1; (void)l; }
int uses(struct outer *o, int n, ...)
{
	int sum = 0;
	for (int i = 0; i < n; i++) {
		typedef int blockint;
		blockint t = square(i) + ext_decl;
		sum += t + o->in.x;
	}
	{
		enum inblock { IB_A, IB_B } e = IB_B;
		sum += e + counter++;
	}
	return sum + square(n);
}
size_t sz(void) { return sizeof(struct outer); }
