/* Fixtures for the options that change how a layout is printed: -E, -p,
 * -r, -M, -I, -l, -w, --suppress_*, --fixup_silly_bitfields,
 * --flat_arrays and --compile (layout/print_options_test.go). Compiled by
 * gcc and clang at test time. */

struct node;
struct opaque;

typedef unsigned long ulong_t;
typedef ulong_t counter_t;
typedef struct node node_t;
typedef int (*visit_fn)(struct node *, void *);

enum kind { K_NONE, K_LEAF = 3, K_INNER = 9 };
typedef enum { T_A, T_B } tag_t;

struct point {
	int x, y;
};

typedef struct {
	char name[12];
	struct point at;
} label_t;

union value {
	long l;
	double d;
	struct point p;
	char raw[9];
};

struct node {
	struct node *next, **link;
	const struct node *parent;
	struct opaque *priv;
	struct {
		char c;
		long n;
	} *anon_ptr;
	node_t *self;
	visit_fn visit;
	counter_t hits;
	label_t label;
	enum kind kind;
	tag_t tag;
	union value val;
	struct point corners[2][2];
};

/* -l: the first member of the largest base type, looked for inside
 * struct and union members too. */
struct small_members {
	char a;
	short b;
	struct point p;
	char c;
};

struct chars {
	char a, b;
	unsigned char c[3];
};

struct wide {
	char tag;
	union value v;
	__int128 big;
	long after;
};

/* --fixup_silly_bitfields: pahole 1.32 turns a bitfield as wide as its
 * type, "int whole:32", into a plain member (1.31 turned the one-bit
 * bitfields of an eight byte type instead). */
struct silly_bits {
	unsigned long one:1;
	unsigned long rest:63;
	int whole:32;
	unsigned char small:1;
	long lone:1;
};

/* --flat_arrays: dimensions multiplied into one. */
struct matrix {
	int m[3][4][5];
	char flat[7];
	short zero_inner[2][0];
	long tail[][3];
};

/* -r: offsets in nested structs relative to them. */
struct nested {
	int before;
	struct {
		char c;
		struct {
			short s;
			long l;
		} deep;
	} mid;
	union {
		int i;
		struct point p;
	} u;
};

/* --suppress_force_paddings: DWARF's "Force padding" members. */
struct force_pad {
	long a __attribute__((aligned(32)));
	char c;
};

/* --suppress_aligned_attribute and --suppress_packed. */
struct aligned_and_packed {
	char c;
	struct point p __attribute__((aligned(16)));
	struct {
		char x;
		int y;
	} __attribute__((packed)) pk;
} __attribute__((aligned(64)));

/* -M: clang defines the anonymous types in the struct's body. */
struct with_types {
	int n;
	struct {
		int a;
	} s;
	enum { W_ONE, W_TWO } e;
	union {
		int i;
		char b[4];
	};
};

/* --compile: types that need others first. */
typedef struct {
	visit_fn fn;
	struct node *start;
	ulong_t budget;
} walk_t;

struct uses_all {
	walk_t walk;
	struct matrix *mx;
	const volatile int cv;
	int (*cb)(walk_t *, struct opaque *, enum kind);
	struct point pts[3];
	struct force_pad fp;
	struct nested *nest;
};

struct node v_node;
struct small_members v_small_members;
struct chars v_chars;
struct wide v_wide;
struct silly_bits v_silly_bits;
struct matrix *v_matrix;
struct nested v_nested;
struct force_pad v_force_pad;
struct aligned_and_packed v_aligned_and_packed;
struct with_types v_with_types;
struct uses_all v_uses_all;
walk_t v_walk;
