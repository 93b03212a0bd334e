/* Layout corner cases for the C dumper: packing, alignment, padding between
 * and after bitfields, odd-sized enums, names used twice, and declarators
 * C makes hard (arrays of function pointers, functions returning pointers
 * to arrays). Each type is used by a global so the BTF keeps it. */
#include <stddef.h>

struct __attribute__((packed)) pk_inner {
	char a;
	int b;
};

struct holds_packed {
	char c;
	struct pk_inner p;
};

struct __attribute__((packed)) pk_aligned_tail {
	int x;
	char y;
};

struct __attribute__((packed, aligned(2))) pk_aligned2 {
	char a;
	int b;
	char c;
};

struct bf_gaps {
	int a : 3;
	int : 0;
	int b : 5;
	long long c : 33;
	char d;
	long long e : 2;
	short f : 9;
};

struct tail_pad {
	long l;
	char c;
	int i : 4;
};

struct over_aligned {
	char c;
	char d __attribute__((aligned(8)));
	short s __attribute__((aligned(64)));
};

struct hole_int {
	char c;
	int i __attribute__((aligned(8)));
	char z;
};

union un_pad {
	char c;
	long l __attribute__((aligned(16)));
};

enum __attribute__((packed)) e_small { ES_A, ES_B = 200 };
enum __attribute__((mode(word))) e_word { EW_A, EW_B };
enum e_big { EB_A = 1, EB_B = 0x100000000LL };

struct uses_enums {
	enum e_small s;
	enum e_word w;
	enum e_big b;
	enum e_small sbits : 4;
};

typedef int (*fnp_t)(int);
typedef int (*arr_of_fp_t[4])(void *, long);
typedef char (*(*fn_ret_arr_t)(int))[8];

struct decls {
	int (*fps[3])(const char *, ...);
	void (*(*nested)(int))(char);
	char (*(*ret_arr)(void))[16];
	const volatile int *const cvp;
	int *restrict rp;
	arr_of_fp_t table;
	fn_ret_arr_t fra;
	int grid[2][3][4];
	fnp_t one;
};

struct self_ref {
	struct self_ref *next;
	struct {
		struct self_ref *up;
		int v;
	} inner;
	union {
		struct self_ref *alt;
		long tag;
	} *anon_ptr;
};

struct empty_s {};

struct has_empty {
	int x;
	struct empty_s e;
	int y;
};

struct holds_packed ghp;
struct pk_aligned_tail gpt;
struct pk_aligned2 gpa2;
struct bf_gaps gbg;
struct tail_pad gtp;
struct over_aligned goa;
struct hole_int ghi;
union un_pad gup;
struct uses_enums gue;
struct decls gdecls;
struct self_ref gsr;
struct has_empty ghe;
