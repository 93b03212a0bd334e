/* -C lookups from DWARF (layout/lookup_test.go): the second unit. */
#include "lookup.h"

struct variant {
	int x;
	int y;
	char z;
};

union second_union {
	struct inner i;
	long l[3];
};

struct second_only {
	char c;
	union second_union u;
	struct outer o;
	int bits:3, more:5;
};

struct variant v2;
struct second_only s2;

int second(void)
{
	return v2.y + s2.bits;
}
