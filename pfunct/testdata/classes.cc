// C++ fixture for how pfunct names and emits classes
// (pfunct/fixture_test.go's TestClasses): a class is "class"; with
// -std=c++98 (DW_LANG_C_plus_plus) every struct is a "class" too; -b
// emits no class a member has. Free functions only, taking pointers and
// values; the class's members are private (access labels are not
// printed).

class Pt {
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
	return b->n + (p != 0) + sizeof(v);
}

int use_typedef(BoxT *b, int n)
{
	return b->n + n;
}
