/* --compile: a struct, a union and an enum named alike in different
 * compile units (shadow2.c, shadow3.c), linked into one object; pahole
 * renames the later ones NAME__1 (layout/compile_test.go). */

struct shadow {
	int a;
	long b;
};

struct user1 {
	struct shadow s;
	struct shadow *p;
};

struct user1 v1;
