/* pglobal's fixture, second unit. */
struct point { int x, y; };
extern struct point global_point;
int defined_in_2 = 7;
int defined_twice_common;
extern int global_counter;
long second_only[3];
int point_sum(struct point *p);
int second_func(struct point *p) { return point_sum(p) + global_point.x + global_counter; }
void no_params() {}
