// A C++ unit for --lang-exclude tests: linked with a C unit, then skipped.
struct CxxOnly { int a; long b; };
CxxOnly gcxx;
