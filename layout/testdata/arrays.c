/* Multi-dimensional arrays (layout/arrays_test.go): 2- and 3-dimensional
 * arrays of base types, structs, unions, enums, typedefs, pointers and
 * const and volatile members, typedefs of arrays, and flexible and
 * zero-length dimensions. pahole 1.32 encodes each as one BTF ARRAY per
 * dimension and prints them, from BTF as from DWARF, as one array with
 * all its dimensions. Compiled by gcc and clang at test time. */

struct pt {
	int x, y;
};

union val {
	long l;
	char c[6][2];
};

enum dir { NORTH, EAST, SOUTH, WEST };

typedef struct pt pt_t;
typedef int row_t[4];
typedef row_t grid_t[3];
typedef const char name_t[2][8];
typedef struct pt path_t[2][5];

struct arrays_base {
	char bytes[16][16];
	int cube[2][3][4];
	unsigned long long wide[3][2];
	short one_by_one[1][1];
	_Bool flags[5][3];
	double m[4][4][2];
};

struct arrays_of_structs {
	char tag;
	struct pt grid[2][3];
	struct pt cube[2][2][2];
	union val vals[3][2];
	enum dir dirs[2][3][2];
	struct {
		int a;
		char b;
	} anon[2][2];
	struct pt *ptrs[3][2];
};

struct arrays_of_typedefs {
	pt_t pts[3][2];
	pt_t cube[2][2][3];
	row_t rows[3];
	grid_t grid;
	grid_t grids[2];
	name_t names;
	path_t paths[2];
	row_t nested[2][2];
};

struct arrays_const {
	int n;
	const int ci[2][5];
	const struct pt cpt[2][2][2];
	volatile char vc[3][4];
	const pt_t ctd[2][3];
	const row_t crow[2];
	const volatile short cv[2][2][2];
};

struct arrays_flex {
	int n;
	int rows[][4];
};

struct arrays_flex3 {
	long n;
	const char names[][2][3];
};

struct arrays_zero {
	int n;
	int a[2][0];
	char b[0][3];
	struct pt tail[2][0][2];
};

union arrays_union {
	int a[2][3];
	char b[4][0];
	struct pt c[2][2];
};

struct arrays_nested {
	struct arrays_of_structs inner[2][2];
	union arrays_union u[2][3];
	struct arrays_base *bp;
	char pad;
};

struct arrays_base v_base;
struct arrays_of_structs v_structs;
struct arrays_of_typedefs v_typedefs;
struct arrays_const v_const;
struct arrays_flex v_flex;
struct arrays_flex3 v_flex3;
struct arrays_zero v_zero;
union arrays_union v_union;
struct arrays_nested v_nested;
name_t v_name;
grid_t v_grid;
