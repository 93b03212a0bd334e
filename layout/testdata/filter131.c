/* Flexible arrays at the end of structs and embedded in them, for
 * --with_flexible_array and --with_embedded_flexible_array: pahole 1.31
 * notes them in the layouts ("XXX last struct has a flexible array") where
 * Debian's pahole 1.24 does not, so the expected outputs are pahole
 * 1.31's, committed (layout/testdata/filter131-*.txt, made by
 * scripts/layout-testdata). */

struct f131_flex {
	int n;
	char data[];
};

struct f131_emb_flex {
	long x;
	struct f131_flex f;
};

struct f131_emb_emb_flex {
	int y;
	struct f131_emb_flex e;
};

struct f131_plain {
	int a;
};

struct f131_flex_long {
	char c;
	long data[];
};

/* Both: embeds one and ends in one. */
struct f131_both {
	struct f131_emb_flex e;
	int n;
	short tail[];
};

struct f131_emb_emb_flex *v_emb_emb_flex;
struct f131_both *v_both;
struct f131_plain v_plain;
struct f131_flex_long *v_flex_long;
