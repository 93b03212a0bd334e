/* A variable whose name BTF cannot carry ('$' is a GNU C extension in
 * identifiers): pahole refuses the file unless encode_force, which leaves
 * the variable out. */
int ff_good_var = 1;
int ff$bad_var = 2;

int ff_func(int x)
{
	return x + ff_good_var + ff$bad_var;
}
