/* prefcnt's fixture: pahole 1.32's tests/prefcnt_coverage.sh's source (variables,
 * inlined functions, lexical blocks). */
struct inner { int x; int y; };
struct outer { struct inner i; int z; };

/* Variables exercise refcnt_variable() */
struct outer g_outer;
struct inner g_inner;
int g_counter;

/* Inlined function exercises refcnt_inline_expansion() */
static inline int compute(struct inner *i) {
	return i->x + i->y;
}

/* Lexical blocks exercise refcnt_lexblock() */
int process(struct outer *o, int n) {
	int result = 0;
	int i;
	for (i = 0; i < n; i++) {
		{
			int tmp = compute(&o->i);
			result += tmp * i;
		}
	}
	return result + o->z;
}

/* More functions to increase reference chain depth */
int use_outer(struct outer *o) {
	struct inner local;
	local.x = o->i.x;
	local.y = o->z;
	return compute(&local);
}
