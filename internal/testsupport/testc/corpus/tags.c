/* BTF type and decl tags: clang emits them as DWARF annotations
 * (DW_TAG_LLVM_annotation); gcc 12 ignores the attributes. */
#if defined(__clang__)
#define __tag(x) __attribute__((btf_type_tag(x)))
#define __dtag(x) __attribute__((btf_decl_tag(x)))
#else
#define __tag(x)
#define __dtag(x)
#endif

struct tagged {
	int __tag("user") *up;
	int __tag("rcu") __tag("percpu") *rp;
	int field __dtag("field_tag");
} __dtag("struct_tag");

int __dtag("var_tag") tagged_var;
struct tagged gtagged;

int __dtag("func_tag") tagged_func(int a __dtag("param_tag"), int __tag("user") *p)
{
	return a + *p;
}
