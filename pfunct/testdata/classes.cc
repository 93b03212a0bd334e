// C++ fixture for how pfunct names classes (pfunct/fixture_test.go's
// TestClasses): a class is "class"; with -std=c++98 (DW_LANG_C_plus_plus)
// every struct is a "class" too. Free functions only, taking pointers and
// values.

class Pt {
public:
	int x;
	long z;
};

struct Box {
	Pt a;
	long n;
};

typedef struct Box BoxT;

long use_box(struct Box *b, const Pt *p, Pt v)
{
	return b->n + p->x + v.z;
}

int use_typedef(BoxT *b, int n)
{
	return b->a.x + n;
}
