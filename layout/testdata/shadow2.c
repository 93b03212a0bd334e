/* See shadow1.c. */

union shadow {
	int x;
	char c[12];
};

struct user2 {
	union shadow u;
	union shadow *q;
	int n;
};

struct user2 v2;

enum shadow2 { S2A };

struct user3 {
	enum shadow2 e;
};

struct user3 v3;
