/* btf_decl_tag on a function, a parameter and a global variable (clang;
 * gcc 12 has no btf_decl_tag and compiles this without tags). */
#if defined(__has_attribute)
#if __has_attribute(btf_decl_tag)
#define FT_TAG(x) __attribute__((btf_decl_tag(x)))
#endif
#endif
#ifndef FT_TAG
#define FT_TAG(x)
#endif

int ft_tagged_var FT_TAG("ft_var_tag") = 1;

int FT_TAG("ft_func_tag") ft_tagged(int a FT_TAG("ft_param_tag"), int b)
{
	return a + b + ft_tagged_var;
}
