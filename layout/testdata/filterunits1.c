/* The first of two compile units linked into one object, for what pahole
 * does across units (layout/filter_test.go): -i looks in the first unit
 * that has the type only, --contains_enumerator prints the enum of each
 * unit that has the enumerator and lists the structs of the others, -X
 * skips units by name, --sort prints a type defined alike in both once. */
struct fu_shared { int a; char b; };
struct fu_variant { long x; };
struct fu_holder { struct fu_shared s; struct fu_variant *v; };
struct fu_zz { struct fu_shared s1; char pad[4]; };
/* pahole prints the next unit's enum with this typedef's name after it
 * (-a --contains_enumerator): its conf keeps the last suffix. */
typedef struct { int t; } fu_ztd;
enum fu_e { FU_A, FU_B };
struct fu_shared v1; struct fu_variant w1; struct fu_holder h1; struct fu_zz z1;
fu_ztd t1;
enum fu_e e1;
