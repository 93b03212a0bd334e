/* Scalar parameters clang drops when the callee ignores them: in
 * registers, and past the sixth, on the stack; a global function keeps
 * its signature. */
__attribute__((noinline)) static int mix(int a, int b, int c)
{
	return a * c - a - c;
}

__attribute__((noinline)) static int ends(int a, int b, int c, int d, int e, int f, int g, int h, int k)
{
	return a * k - a - k;
}

__attribute__((noinline)) int ends_global(int a, int b, int c, int d, int e, int f, int g, int h, int k)
{
	return a * k + a + k;
}

__attribute__((noinline)) static long keep_all(long a, long b)
{
	return a ^ b;
}

int a, b, c, d, e, f, g, h, k;

int main(void)
{
	return mix(a, b, c) + ends(a, b, c, d, e, f, g, h, k) + ends_global(a, b, c, d, e, f, g, h, k) + (int)keep_all(a, b);
}
