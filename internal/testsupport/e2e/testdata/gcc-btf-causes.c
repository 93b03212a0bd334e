/*
 * scripts/gcc-btf-causes compiles this with gcc -gbtf (gcc 12, 14, 15) and
 * with gcc -g + pahole -J, and looks in each BTF for what the BTF-archive
 * route of a kernel differs from the DWARF route by: enum signedness,
 * enumerators at or above 2^31 in a 4-byte enum, 8-byte enums (ENUM64),
 * types defined inside a function body, and how an enum declared only
 * (enum X;) is written. The names below are the ones the script greps for.
 */

/* Signedness: a negative enumerator makes the enum signed. */
enum cause_signed { CS_NEG = -5, CS_ZERO = 0, CS_POS = 7 };
/* A 4-byte unsigned enum with enumerators at and above 2^31. */
enum cause_big32 { CB_LOW = 1, CB_HIGH = 0x80000000U, CB_MAX = 0xffffffffU };
/* An 8-byte enum: ENUM64 in BTF. */
enum cause_big64 { C64_LOW = 1, C64_HUGE = 0x100000000ULL };

enum cause_signed cause_g_signed = CS_NEG;
enum cause_big32 cause_g_big32 = CB_HIGH;
enum cause_big64 cause_g_big64 = C64_HUGE;

/* An enum declared, never defined: pahole writes ENUM size=4 vlen=0 (as
 * libbpf's btf__add_fwd does for an enum), gcc 12 a struct FWD. */
enum cause_fwd;
struct cause_holder { enum cause_fwd *p; } cause_g_holder;

extern void cause_consume(void *p, unsigned long n);

/* Types defined in a function body, each used by a local variable whose
 * address escapes, so that no optimization takes them away. */
int cause_local_types(int x)
{
	struct cause_local_struct { int a; long b; } ls = { x, 2L * x };
	union cause_local_union { int i; float f; } lu = { .i = x };
	enum cause_local_enum { CLE_ONE = 1, CLE_TWO = 2 } le = x ? CLE_ONE : CLE_TWO;
	typedef unsigned long cause_local_typedef;
	cause_local_typedef lt = (cause_local_typedef)x;

	cause_consume(&ls, sizeof(ls));
	cause_consume(&lu, sizeof(lu));
	cause_consume(&le, sizeof(le));
	cause_consume(&lt, sizeof(lt));
	return ls.a;
}
