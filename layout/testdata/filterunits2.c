/* The second of two compile units linked into one object (see
 * filterunits1.c). */
struct fu_shared { int a; char b; };
struct fu_variant { int x; int y; char z; };
struct fu_other { struct fu_shared s2; struct fu_variant *v2; };
struct fu_aa { int q; };
struct fu_zz { struct fu_shared s1; char pad[4]; };
enum fu_e { FU_A, FU_B };
enum fu_e2 { FU_C = 3 };
struct fu_shared v2; struct fu_variant w2; struct fu_other o2; struct fu_aa a2;
struct fu_zz z2;
enum fu_e e2; enum fu_e2 e3;
