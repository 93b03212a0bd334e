/* codiff's fixture, new build: a unit the old build did not have. */
struct added_cfg { int level; };
int added_init(struct added_cfg *c) { return c->level; }
