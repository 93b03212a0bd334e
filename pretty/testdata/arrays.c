/* Multi-dimensional arrays in records (cmd/btfkit/pretty_records_test.go,
 * TestPrettifyArrays): pahole prints a char array of any dimensions as a
 * string, a one-dimensional array of integers as "{ 1, 2 }" and anything
 * else as a hex dump; pahole 1.32 encodes one BTF ARRAY per dimension
 * and folds them back when it loads BTF. */

struct pt {
	short x, y;
};

typedef int row_t[2];

struct md {
	char name[2][4];
	int grid[2][3];
	unsigned char cube[2][2][2];
	struct pt pts[2][2];
	const char cname[2][3];
	char flat[6];
	short one[3];
	row_t rows[2];
	long wide[1][2];
	int tail[][2];
};

struct md v_md;
