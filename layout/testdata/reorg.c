/* Fixtures for pahole's -R/--reorganize, -S/--show_reorg_steps and
 * -P/--packable (layout/reorganize_test.go), compiled by gcc and clang at
 * test time. Each struct exercises one path of pahole's class__reorganize.
 * No struct has a member of a type with holes or padding. */

/* Later members fill earlier holes; one move and the struct shrinks by a
 * word each time. */
struct holes {
	char a;
	long b;
	char c;
	int d;
	short e;
};

/* The last member moves into a hole before it (the padding case). */
struct tail {
	char a;
	long b;
	int c;
};

/* The last member moves into a hole at an offset that is not a multiple
 * of a word: -S says it adds its bytes to the padding. */
struct tail_unaligned {
	short a;
	char b;
	int c;
	short d;
	char e;
};

/* Bitfields are never moved; members around them are. */
struct bits {
	char a;
	int x:3;
	int y:5;
	long b;
	char c;
	unsigned int z:7;
	long d;
	short e;
};

/* pahole's padding rule makes this 8-byte struct one of 12 (it subtracts
 * the end's remainder from the word size, not from the alignment):
 * btfkit prints the original instead. */
struct grows {
	int a;
	char b;
};

/* The last member fills the hole after a byte, before a short. */
struct small_hole {
	int a;
	char b;
	short c;
	char d;
};

/* Members named and anonymous (pahole names them "(null)" in -S). */
struct anon {
	char a;
	union {
		long l;
		void *p;
	};
	char c;
	struct {
		int i;
		int j;
	};
	short s;
};

/* The next member after a hole is never moved closer: it could be an
 * explicit alignment. */
struct explicit_align {
	long a;
	char b;
	int c __attribute__((aligned(64)));
	char d;
	long e;
};

/* No holes: nothing moves (and -P does not list it). */
struct tight {
	long a;
	int b;
	short c;
	char d;
	char e;
};

/* Arrays, pointers and a flexible array at the end. */
struct arrays {
	char tag;
	void *ptrs[3];
	char name[5];
	int count;
	short flags;
	unsigned char data[];
};

struct inner {
	int x;
	int y;
};

/* Struct members move like any other. */
struct outer {
	char a;
	struct inner i;
	char b;
	long l;
	struct inner j;
	char c;
};

/* Many small members and many holes: several rounds of moves. */
struct many {
	char c1;
	long l1;
	char c2;
	long l2;
	short s1;
	long l3;
	char c3;
	int i1;
	char c4;
	long l4;
	short s2;
	int i2;
	char c5;
};

enum reorg_color { RED, GREEN };

/* An enum member and a packed struct: pahole pads it to 16 bytes, btfkit
 * keeps the original. */
struct with_enum {
	char a;
	enum reorg_color col;
	char b;
	long l;
} __attribute__((packed));

/* -R prints nothing for a union or a typedef. */
union reorg_union {
	long l;
	char c[3];
};

typedef struct holes holes_t;

/* Anonymous structs -P lists with -a: by their typedef's name, or by
 * where they are declared. */
typedef struct {
	char a;
	long b;
	char c;
} reorg_anon_t;

struct {
	char a;
	long b;
	char c;
} v_reorg_anon;

struct holes v_holes;
struct tail v_tail;
struct tail_unaligned v_tail_unaligned;
struct bits v_bits;
struct grows v_grows;
struct small_hole v_small_hole;
struct anon v_anon;
struct explicit_align v_explicit_align;
struct tight v_tight;
struct arrays v_arrays;
struct outer v_outer;
struct many v_many;
struct with_enum v_with_enum;
union reorg_union v_union;
holes_t v_holes_t;
reorg_anon_t v_reorg_anon_t;
