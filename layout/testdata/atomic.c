/* C11 _Atomic, which DWARF 5 (and gcc's and clang's DWARF 4 as an
 * extension) carries as DW_TAG_atomic_type and BTF cannot: typedefs of
 * atomic base types and pointers, _Atomic members, _Atomic under const,
 * pointers to and arrays of atomics, and functions taking them. */
#include <stdatomic.h>

typedef _Atomic int my_atomic_int;
typedef _Atomic unsigned long my_atomic_ulong;
typedef _Atomic(int *) atomic_int_ptr;
typedef const _Atomic int const_atomic_int;

struct atomic_counters {
	my_atomic_int	count;
	my_atomic_ulong	mask;
	_Atomic long	sequence;
	_Atomic int	*to_atomic;
	int * _Atomic	atomic_ptr;
	const _Atomic int ro;
	_Atomic short	grid[2][3];
	atomic_int_ptr	p;
	const_atomic_int c;
	atomic_int	from_header;
	atomic_flag	flag;
	struct {
		_Atomic char	inner;
		volatile int	vol;
	} nested;
};

struct atomic_counters g_counters;

int atomic_sum(_Atomic int x, const _Atomic long *y, struct atomic_counters *c)
{
	return x + *y + c->count;
}
