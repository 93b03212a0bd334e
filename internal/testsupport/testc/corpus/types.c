/* Every C type construct the encoder must handle. Compiled by gcc and
 * clang, DWARF 4 and 5, -O0 and -O2; objects keep all types because each is
 * used by a global variable below. */
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;
typedef int s32;
typedef unsigned char u8;

enum color { RED, GREEN = 5, BLUE };
enum sgn { NEG = -3, ZERO = 0, POS = 3 };
enum big64 { SMALL = 1, HUGE = 0xffffffff00000000ULL };
enum neg64 { NBIG = -0x100000000LL, NONE = 1 };
enum __attribute__((packed)) packed_enum { PA, PB };

struct fwd_only;          /* declared, never defined */
struct fwd_only *fwd_ptr;

struct bits {
	unsigned int a : 3;
	unsigned int b : 5;
	int c : 7;
	unsigned long long d : 40;
	u8 e : 1;
	_Bool f : 1;
	enum color col : 4;
	int plain;
};

struct nested {
	int x;
	union {
		int i;
		float f;
		struct {
			short lo, hi;
		};
	};
	struct {
		char tag[3];
	} named_anon;
	struct bits b;
};

struct list_head {
	struct list_head *next, *prev;
};

struct node;
struct tree {
	struct node *root;
	struct list_head lh;
};
struct node {
	struct tree *owner;
	struct node *kids[2];
	const volatile int *cvp;
	int *restrict rp;
};

struct flex {
	int n;
	long data[];
};

struct zero_len {
	int n;
	char data[0];
};

struct arrays {
	int a1[4];
	int a2[2][3];
	char a3[2][3][4];
	const char *names[5];
};

struct __attribute__((packed)) packed_s {
	char c;
	int i;
	short s;
};

struct aligned_s {
	char c;
	int i __attribute__((aligned(16)));
} __attribute__((aligned(32)));

typedef struct {
	int anon_typedef_member;
} anon_td_t;

typedef int (*callback_t)(void *ctx, const char *msg, ...);
typedef void (*noargs_t)(void);

struct ops {
	callback_t cb;
	noargs_t fn;
	int (*open)(struct ops *self, unsigned flags);
	void (*close)(struct ops *);
	struct ops *(*clone)(const struct ops *);
};

union u {
	int i;
	unsigned long long ull;
	double d;
	char bytes[8];
};

struct all_base {
	char c;
	signed char sc;
	unsigned char uc;
	short s;
	unsigned short us;
	int i;
	unsigned int ui;
	long l;
	unsigned long ul;
	long long ll;
	unsigned long long ull;
	float f;
	double d;
	long double ld;
	_Bool b;
	__int128 i128;
	unsigned __int128 u128;
	wchar_t wc;
	size_t sz;
	int8_t i8;
	uint16_t u16;
	int32_t i32;
	uint64_t u64v;
	_Complex double cd;
};

struct bits gbits;
struct nested gnested;
struct tree gtree;
struct flex *gflex;
struct zero_len *gzero;
struct arrays garrays;
struct packed_s gpacked;
struct aligned_s galigned;
anon_td_t ganon;
struct ops gops;
union u gu;
struct all_base gbase;
enum color gcolor;
enum sgn gsgn;
enum big64 gbig;
enum neg64 gneg64;
enum packed_enum gpe;
volatile u64 gvol;
const s32 gconst = 3;
void *gvoidp;
const void *gcvoidp;
int gmulti[3][4];
