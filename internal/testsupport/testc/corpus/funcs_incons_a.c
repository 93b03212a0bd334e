/* Half of a prototype conflict (see funcs_incons_b.c): here fi_dup takes
 * an int and is only ever inlined, so this unit describes it without an
 * address. */
static inline __attribute__((always_inline)) int fi_dup(int x)
{
	return x + 1;
}

int fi_user_a(int x)
{
	return fi_dup(x) * 3;
}
