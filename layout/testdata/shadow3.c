/* See shadow1.c. */

struct shadow2 {
	int z;
};

struct user4 {
	struct shadow2 s;
};

struct user4 v4;
