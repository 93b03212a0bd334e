/* codiff's fixture, old build, conn.c. */
struct conn {
	int fd;
	char state;
	long bytes;
	unsigned flags:3, mode:2;
	struct { int lo, hi; } range;
};
struct stats { long rx, tx; };
struct gone { int x; };
int conn_open(struct conn *c, int fd, int flags) { c->fd = fd; c->flags = flags; return 0; }
long conn_bytes(struct conn *c) { return c->bytes; }
int conn_removed(struct gone *g) { return g->x; }
static inline int helper(int x) { return x + 1; }
int uses_helper(int x) { return helper(x) * 3; }
int same(int a) { return a; }
void stats_add(struct stats *s, long n) { s->rx += n; }
