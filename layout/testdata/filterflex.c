/* Flexible arrays at the end of structs and embedded in them, for
 * --with_flexible_array and --with_embedded_flexible_array, which the
 * layouts note ("XXX last struct has a flexible array"); a union ending
 * in one, which pahole 1.32 no longer matches (layout/filter_test.go). */

struct fflex_flex {
	int n;
	char data[];
};

struct fflex_emb_flex {
	long x;
	struct fflex_flex f;
};

struct fflex_emb_emb_flex {
	int y;
	struct fflex_emb_flex e;
};

struct fflex_plain {
	int a;
};

struct fflex_flex_long {
	char c;
	long data[];
};

/* Both: embeds one and ends in one. */
struct fflex_both {
	struct fflex_emb_flex e;
	int n;
	short tail[];
};

struct fflex_emb_emb_flex *v_emb_emb_flex;
struct fflex_both *v_both;
struct fflex_plain v_plain;
struct fflex_flex_long *v_flex_long;

/* Unions, which pahole 1.32 never matches with --with_flexible_array (1.31
 * matched every union) nor with the other struct-only filters: one ending
 * in an array of no elements, one embedding a struct that ends in a
 * flexible array, one with padding. */
union fflex_union_zero {
	long l;
	char data[0];
};

union fflex_union_emb {
	int i;
	struct fflex_flex f;
};

union fflex_union_padded {
	long l;
	char c[9];
};

union fflex_union_zero v_union_zero;
union fflex_union_emb v_union_emb;
union fflex_union_padded v_union_padded;
