/* Two compile units linked into one object (layout/fixture_test.go): a
 * struct both define alike is printed once, one they define differently
 * twice, in unit order. */
struct shared { int a; char b; };
struct variant { int x; int y; char z; };
struct only2 { short s; long l; };
struct shared v2; struct variant w2; struct only2 o2;
