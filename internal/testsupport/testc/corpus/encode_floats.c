/* Floating-point base types: FLOAT with the float feature, INT without. */
struct floats {
	float f;
	double d;
	long double ld;
	float fa[3];
};
struct floats gfloats;
typedef double real_t;
real_t greal;
