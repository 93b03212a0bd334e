/* Layout fixtures whose output pahole 1.25 and later print differently
 * from Debian's pahole 1.24: struct members whose types have holes,
 * padding, bit holes or a flexible array get 1.25's "XXX last struct has"
 * notes and the "member types with", "paddings" and "flexible array
 * members" summary lines, and from BTF, alignments inferred from
 * bitfields. Compared with the pahole on PATH (1.32) at test time
 * (layout/differ_test.go). */

struct inner_holes {
	char a;
	long b;
	char c;
};

struct inner_bits {
	unsigned int a:3;
	unsigned int b:4;
	char c;
};

struct inner_flex {
	int n;
	long data[];
};

struct uses_inner {
	struct inner_holes h;
	struct inner_bits bits;
	int x;
	struct inner_holes h2[2];
};

struct embeds_flex {
	long x;
	struct inner_flex f;
};

struct nested_flex {
	int y;
	struct embeds_flex ef;
};

struct anon_holes {
	int x;
	struct {
		char c;
		int n;
	} named;
	struct {
		char c2;
		long l2;
	};
};

struct uses_inner v_uses_inner;
struct anon_holes v_anon_holes;
struct nested_flex *v_nested_flex;

/* 1.31 prints the members of a typedef's anonymous struct 8 columns to
 * the left of 1.24's. */
typedef struct {
	int a;
	char b;
} anon_typedef;

anon_typedef v_anon_typedef;

/* From BTF, 1.24 infers __aligned__(8) for this struct: it counts a
 * bitfield's whole storage unit where 1.31 counts its bits. */
struct odd_bits {
	char c[3];
	unsigned int x:7;
	unsigned int y:30;
} __attribute__((packed));

struct odd_bits v_odd_bits;
