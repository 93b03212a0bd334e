/* Fixtures for pahole's type filters and its other listings (-s, -n, -N,
 * -H, -B, -z, --padding_ge, --packed, --structs, --unions, -a, -A, -x,
 * -y, -i, -f, -d, --with_flexible_array, --with_embedded_flexible_array,
 * --contains_enumerator, --sort, --show_private_classes, -D):
 * layout/filter_test.go compiles it with gcc and clang at test time and
 * compares btfkit with pahole on the same objects. */

#include "filter.h"

/* Holes: none, one, two, three; the largest 7 bytes. */
struct flt_h0 {
	long a;
	int b;
	int c;
};

struct flt_h1 {
	char a;
	int b;
};

struct flt_h2 {
	char a;
	int b;
	char c;
	long d;
};

struct flt_h3 {
	char a;
	long b;
	char c;
	int d;
	char e;
	long f;
};

/* Bit holes. */
struct flt_b1 {
	unsigned int a:3;
	unsigned int :0;
	unsigned int b:5;
	int c;
};

struct flt_b2 {
	unsigned char a:2;
	unsigned char :0;
	unsigned char b:3;
	unsigned char :0;
	unsigned char c:1;
	int d;
};

/* Padding at the end: 7, 4 and 1 byte. */
struct flt_pad7 {
	long a;
	char b;
};

struct flt_pad4 {
	long a;
	int b;
};

struct flt_pad1 {
	short a;
	char b;
};

/* Packed, and packed because of where another struct puts it. */
struct flt_packed {
	char a;
	int b;
} __attribute__((packed));

struct flt_inner_unaligned {
	short x;
	short y;
};

struct flt_holds_unaligned {
	char c;
	struct flt_inner_unaligned in;
	char d[3];
} __attribute__((packed));

/* A flexible array (embedded ones: filter131.c). */
struct flt_flex {
	int n;
	char data[];
};


/* Unions. */
union flt_union {
	int i;
	long l;
	char c[3];
};

union flt_union_big {
	struct flt_h1 h;
	char c[32];
};

/* Anonymous types: through typedefs, nested, and neither. */
typedef struct {
	char a;
	long b;
} flt_anon_td;

typedef union {
	int i;
	float f;
} flt_anon_union_td;

typedef struct {
	int x;
} flt_anon_td2, flt_anon_td2_again;

struct flt_nested_anon {
	int a;
	struct {
		char b;
		char b2;
		short c;
	};
	union {
		int d;
		short e;
	};
	struct {
		int f;
		int g;
	} named;
};

struct {
	char a;
	short b;
} flt_anon_var;

/* Containers (-i, -d) and pointers (-f). */
struct flt_target {
	int t;
};

struct flt_c1 {
	struct flt_target t;
	int x;
};

struct flt_c2 {
	struct flt_c1 c;
	struct flt_target t2;
	struct flt_target t3;
};

struct flt_c3 {
	char a;
	struct flt_c2 c2;
};

struct flt_c4 {
	struct flt_target a;
	union {
		struct flt_target t;
		long l;
	} u;
	struct {
		struct flt_target in;
	};
};

struct flt_ptrs {
	struct flt_target *p1;
	int *ip;
	struct flt_target *p2;
	const struct flt_target *cp;
	struct flt_target **pp;
};

struct flt_ptrs2 {
	char c;
	struct flt_target *only;
};

struct flt_fwd_user {
	struct flt_fwd_only *f;
};

/* Enumerations for --contains_enumerator. */
enum flt_colors {
	FLT_RED,
	FLT_GREEN = 5,
	FLT_BLUE,
};

enum flt_shapes {
	FLT_CIRCLE = -1,
	FLT_SQUARE,
	FLT_GREEN_SQUARE,
};

/* Names to sort: the same name prefix, different sizes. */
struct flt_sort_b {
	int x;
};

struct flt_sort_a {
	long y;
};

struct flt_sort_ab {
	char z;
};

/* A type defined inside a function (pahole's private classes). */
int flt_private_user(int v)
{
	struct flt_local {
		char c;
		long l;
	};
	volatile struct flt_local loc = { .c = (char)v, .l = v };

	return loc.c + (int)loc.l;
}

struct flt_h0 v_h0; struct flt_h1 v_h1; struct flt_h2 v_h2; struct flt_h3 v_h3;
struct flt_b1 v_b1; struct flt_b2 v_b2;
struct flt_pad7 v_pad7; struct flt_pad4 v_pad4; struct flt_pad1 v_pad1;
struct flt_packed v_packed; struct flt_holds_unaligned v_holds_unaligned;
struct flt_flex *v_flex;
union flt_union v_union; union flt_union_big v_union_big;
flt_anon_td v_anon_td; flt_anon_union_td v_anon_union_td; flt_anon_td2_again v_anon_td2;
struct flt_nested_anon v_nested_anon;
struct flt_c3 v_c3; struct flt_c4 v_c4;
struct flt_ptrs v_ptrs; struct flt_ptrs2 v_ptrs2; struct flt_fwd_user v_fwd_user;
enum flt_colors v_colors; enum flt_shapes v_shapes;
struct flt_sort_b v_sort_b; struct flt_sort_a v_sort_a; struct flt_sort_ab v_sort_ab;
struct hdr_decl v_hdr_decl;
