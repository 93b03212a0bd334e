/* C11 _Atomic in prototypes (DW_TAG_atomic_type, which gcc writes in
 * DWARF 5): parameters, pointers to atomics, atomic pointers, typedefs. */
typedef _Atomic long atomic_count;

struct counter {
	_Atomic int value;
	atomic_count total;
};

int atomic_add(_Atomic int *to, int n)
{
	*to += n;
	return n;
}

long atomic_read(const _Atomic long *p, struct counter *c)
{
	return *p + c->total;
}

static int * _Atomic slot;

int *swap_slot(int * _Atomic *where, atomic_count n)
{
	int *old = *where;
	*where = slot;
	return old + n;
}

/* A typedef of an _Atomic struct: -b and --compile emit what the struct
 * needs, and the struct, before the typedef. */
struct inner_total {
	int a;
};

struct pair {
	struct inner_total in;
	long b;
};

typedef _Atomic struct pair atomic_pair;

int read_pair(atomic_pair *p, int n)
{
	return n + (p != 0);
}
