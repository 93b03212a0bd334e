/* pglobal's fixture, first unit: external and static variables and
 * functions, declarations and definitions of the same names in two
 * units, types printed in place. */
struct point { int x, y; };
struct rect { struct point origin; int width, height; };
union num { int i; float f; };

struct point global_point = { 1, 2 };
struct rect global_rect;
int global_counter = 42;
extern int declared_only;
extern int defined_in_2;
int defined_twice_common;
struct { int a; char b[3]; } anon_var;
int (*handler)(int, char *);
int matrix[4][5];
const char *const names[2];
union num number;
static int static_counter = 99;
static struct point static_point;
_Thread_local int tls_var;
volatile unsigned long jiffies_like;

int point_sum(struct point *p) { return p->x + p->y; }
int rect_area(struct rect *r) { return r->width * r->height; }
static int static_helper(int a, int b) { return a + b; }
inline int inline_ext(int a) { return a * 2; }
int varargs(const char *fmt, ...) { return fmt[0]; }
int use_statics(void)
{
	extern int block_extern;
	return static_point.x + static_counter + static_helper(1, 2) + declared_only + defined_in_2 + block_extern + inline_ext(3);
}
