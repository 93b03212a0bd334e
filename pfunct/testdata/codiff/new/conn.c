/* codiff's fixture, new build, conn.c: struct conn gained a member
 * (and its offsets moved), a bitfield grew, conn_open lost a parameter,
 * conn_bytes grew, conn_removed is gone, conn_added is new. */
struct conn {
	int fd;
	char state;
	int added;
	long bytes;
	unsigned flags:5, mode:2;
	struct { int lo, hi; } range;
};
struct stats { long rx, tx; };
struct fresh { int y; };
int conn_open(struct conn *c, int fd) { c->fd = fd; c->added = 1; return 0; }
long conn_bytes(struct conn *c) { return c->bytes * 3 + c->added - c->state; }
int conn_added(struct fresh *f) { return f->y; }
static inline int helper(int x) { return x + 1; }
int uses_helper(int x) { return helper(x) * 3; }
int same(int a) { return a; }
void stats_add(struct stats *s, long n) { s->rx += n; }
