/* -C lookups from DWARF (layout/lookup_test.go): types every unit of
 * the lookup*.c program includes. */
struct inner {
	int a;
	char b;
	long c;
};

struct outer {
	struct inner in;
	char tag;
	struct inner *p;
	struct {
		short s;
		struct inner deep;
	} anon;
};

typedef struct outer outer_t;

enum mode { MODE_A, MODE_B = 7 };
