/* Types with a type defined in their body: clang puts an anonymous
 * struct or union in the body of its container, after the member that
 * uses it; gcc puts it at the top level of the unit. Included by
 * nested1.c, nested2.c and nested3.c (TestNestedRelisted). */
union nested_first {		/* nested type between two members */
	struct { unsigned char blocked, need_qs; } b;
	unsigned int s;
};
union nested_last {		/* nested type after the last member */
	unsigned int s;
	struct { unsigned char blocked, need_qs; } b;
};
struct nested_mid {
	int a;
	struct { int x; } in;
	int c;
};
struct nested_none {		/* nothing nested: listed once */
	long x;
	union nested_first *f;
};
struct nested_two {		/* two nested types */
	union { int i; float f; } u;
	struct { short lo, hi; } w;
	char tail;
};
