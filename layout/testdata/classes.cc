// C++ fixture for --classes_as_structs (layout/print_options_test.go): a
// class is printed "class" unless the option is given, and with
// -std=c++98 (DW_LANG_C_plus_plus) pahole names every struct a class
// where it spells a type's name. No struct member has holes or padding.

class Pt {
	int x;
	int y;
	long z;
};

struct Box {
	Pt a;
	Pt *p;
	long n;
};

class Node {
	Node *next;
	Pt where;
};

typedef class Pt PtT;

struct Uses {
	PtT t;
	Box b;
	Node *head;
	const Box *cb;
};

Pt v_pt;
Box v_box;
Node v_node;
Uses v_uses;
