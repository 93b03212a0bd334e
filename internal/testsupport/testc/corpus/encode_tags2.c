/* More BTF tags for the encoder: decl tags on typedefs, unions and members
 * (several per entity), type tags in chains of three, on pointers to
 * structs, to pointers and to functions. gcc 12 ignores the attributes. */
#if defined(__clang__)
#define __tag(x) __attribute__((btf_type_tag(x)))
#define __dtag(x) __attribute__((btf_decl_tag(x)))
#else
#define __tag(x)
#define __dtag(x)
#endif

struct target {
	int v;
};

typedef struct target target_t __dtag("td_tag") __dtag("td_tag2");

union tagged_u {
	int a __dtag("ua") __dtag("ub");
	long b;
} __dtag("union_tag");

struct chains {
	struct target __tag("a") __tag("b") __tag("c") *p3;
	int __tag("outer") * __tag("inner") *pp;
	void (__tag("fn") *fp)(int);
	const struct target __tag("user") *cp;
	target_t tt;
	union tagged_u u;
};

struct chains gchains;
