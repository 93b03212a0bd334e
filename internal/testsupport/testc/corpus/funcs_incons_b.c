/* The other half (see funcs_incons_a.c): fi_dup takes a long here, and
 * this is the definition the symbol table has. */
int fi_dup(long x)
{
	return (int)(x * 2);
}
