/* Layout fixtures: no struct member of a type with holes, padding or a
 * flexible array (testdata/differ.c has those). Compiled by gcc and clang
 * at test time and compared with the pahole on PATH
 * (layout/fixture_test.go). */

struct holes {
	char a;
	int b;
	char c;
	long d;
	short e;
};

struct bits {
	unsigned int a:3, b:5;
	unsigned char c;
	unsigned int d:20;
	unsigned long e:40;
	int f:1;
	unsigned int :0;
	unsigned int g:2;
};

struct packed_s {
	char a;
	int b;
	short c;
} __attribute__((packed));

struct aligned_member {
	int a;
	int b __attribute__((aligned(16)));
	char c;
};

struct aligned_s {
	int a;
	long b;
} __attribute__((aligned(64)));

struct anon_members {
	int x;
	union {
		int i;
		float f;
		struct {
			short s1, s2;
		};
	};
	struct {
		int c;
		int n;
	} named;
	union {
		long l;
		void *p;
	} u;
};

struct flex {
	int n;
	char data[];
};

struct big {
	char buf[100];
	long after;
	int arr[3][4];
	void (*fn)(int, const char *);
	const char *const *cp;
	volatile int v;
	int *restrict r;
	_Bool b;
	float f;
	double d;
	unsigned char tail[70];
};

typedef struct {
	int a;
	char b;
} anon_td;

typedef int int_array_td[4];
typedef void (*callback_td)(struct big *, int);

enum color { RED, GREEN = 5, BLUE = 7 };

enum small_enum { SMALL_A = 1, SMALL_B = 2 } __attribute__((packed));

struct with_enum {
	enum color c;
	enum { X1, X2, X3 } anon_e;
	enum color bits:4;
	enum small_enum se;
	callback_td cb;
	anon_td td;
};

union odd_union {
	struct {
		char a;
		short b;
		char c;
	} s;
	int i;
	char bytes[6];
};

struct packed_inner {
	char c;
	int i;
} __attribute__((packed));

struct outer_unaligned {
	char x;
	struct packed_inner pi;
	int y;
};

struct cachelines {
	long a[7];
	int b;
	long c[9];
	char d;
	long e[20];
};

struct ptrs {
	struct ptrs *next;
	struct ptrs **pprev;
	const struct ptrs *cnext;
	void *opaque;
	int (*cmp)(const void *, const void *);
	char *(*name_of)(struct ptrs *const, unsigned long);
};

struct holes v_holes;
struct bits v_bits;
struct packed_s v_packed;
struct aligned_member v_aligned_member;
struct aligned_s v_aligned;
struct anon_members v_anon;
struct flex *v_flex;
struct big v_big;
anon_td v_anon_td;
int_array_td v_int_array;
callback_td v_callback;
struct with_enum v_with_enum;
union odd_union v_odd_union;
struct outer_unaligned v_outer_unaligned;
struct cachelines v_cachelines;
struct ptrs v_ptrs;

/* Bitfields in a packed struct, across storage units, an anonymous enum
 * bitfield and a _Bool one. */
struct __attribute__((packed)) packed_bits {
	char c;
	unsigned int a:20;
	unsigned int b:12;
	unsigned short s:3;
	long l:40;
};

struct wide_bits {
	unsigned long a:63;
	unsigned char b:3;
	unsigned int :0;
	int c;
};

struct enum_bits {
	enum { EB_A, EB_B } k:2;
	_Bool f:1;
};

struct packed_bits v_packed_bits;
struct wide_bits v_wide_bits;
struct enum_bits v_enum_bits;
