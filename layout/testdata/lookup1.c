/* -C lookups from DWARF (layout/lookup_test.go): the first of three
 * units linked into one program. pahole prints a name from the first
 * unit that defines it and reads no unit after the one where the last
 * name was found. */
#include "lookup.h"

struct variant {
	long x;
};

struct first_only {
	struct outer o;
	enum mode m;
	char c;
};

struct variant v1;
struct first_only f1;
outer_t ot1;

int second(void);
int third(void);

int main(void)
{
	return second() + third() + (int)v1.x + f1.c + ot1.tag;
}
