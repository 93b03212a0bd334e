/* -C lookups from DWARF (layout/lookup_test.go): the third unit; its
 * struct outer is used only here through a pointer. */
#include "lookup.h"

struct variant {
	char a[3];
	short s;
};

struct third_only {
	struct inner i[2];
	struct outer *op;
	struct variant v;
	char tail;
};

struct third_only t3;

int third(void)
{
	return t3.tail + t3.v.s;
}
