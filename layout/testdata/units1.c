/* Two compile units linked into one object (layout/fixture_test.go): a
 * struct both define alike is printed once, one they define differently
 * twice, in unit order. */
struct shared { int a; char b; };
struct variant { long x; };
struct only1 { struct shared s; char c; };
struct shared v1; struct variant w1; struct only1 o1;
