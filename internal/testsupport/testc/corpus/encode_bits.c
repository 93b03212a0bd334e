/* Bitfield layouts for the encoder: storage units of every size, fields
 * straddling units, signed fields, "silly" full-width fields, bitfields in
 * unions and packed structs, and offsets past 2^16 bits. */
struct bf_units {
	unsigned char c1 : 3, c2 : 5;
	unsigned short s1 : 9, s2 : 7;
	unsigned int i1 : 31;
	unsigned int i2 : 1;
	unsigned long long l1 : 33, l2 : 31;
	signed char sc : 2;
	short ss : 3;
	long long sll : 60;
};

struct bf_silly {
	int whole : 32;
	unsigned long long full : 64;
	char c : 8;
};

struct __attribute__((packed)) bf_packed {
	char c;
	unsigned int x : 20;
	unsigned int y : 12;
	unsigned long long z : 40;
};

union bf_union {
	unsigned int lo : 16;
	unsigned int all;
	unsigned char b : 1;
};

struct bf_far {
	char pad[9000];
	unsigned int a : 5;
	unsigned int b : 27;
	struct {
		unsigned int x : 1;
		unsigned int y : 2;
	} inner;
	unsigned int zero_pad : 3;
	unsigned int : 0;
	unsigned int after : 4;
};

struct bf_units gbf_units;
struct bf_silly gbf_silly;
struct bf_packed gbf_packed;
union bf_union gbf_union;
struct bf_far gbf_far;
