#include "nested.h"
int nested_use3(union nested_first *a, union nested_last *b, struct nested_mid *c,
		 struct nested_none *d, struct nested_two *e)
{
	return a->s + b->s + c->c + (int)d->x + e->tail;
}
