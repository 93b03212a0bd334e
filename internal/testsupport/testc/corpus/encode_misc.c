/* Corners for the encoder: an incomplete enum (GNU extension), an
 * anonymous enum, unsigned enum with values above INT_MAX, enums of
 * every size, a union forward declaration, a VLA in a function (its
 * subrange bound is an expression), a type defined only inside a
 * function, and a prototype with unnamed parameters. */
enum incomplete_e;
enum incomplete_e *gincomplete;
enum { ANON_A = 1, ANON_B = 2 } ganon_enum;
enum u32big { U32_BIG = 0xfffffff0u, U32_SMALL = 1 } gu32big;
enum __attribute__((packed)) e8 { E8_A = 200 } ge8;
enum __attribute__((packed)) e16 { E16_A = 40000 } ge16;
enum s8n { S8_NEG = -100 } __attribute__((packed)) gs8n;
enum s64e { S64_MIN = -0x7fffffffffffffffLL - 1, S64_MAX = 0x7fffffffffffffffLL } gs64e;
union fwd_union;
union fwd_union *gfwd_union;

typedef int (*handler_t)(int, char *, ...);
handler_t ghandler;

int vla_user(int n)
{
	char buf[n];
	struct local_only {
		int x;
		short y;
	} lo = { n, 1 };
	buf[0] = (char)lo.y;
	return buf[0] + lo.x;
}
