/* codiff's fixture, old build, queue.c. */
struct stats { long rx, tx; };
struct queue { struct stats st; short len; int cap; };
int queue_len(struct queue *q) { return q->len; }
void queue_clear(struct queue *q) { q->len = 0; q->st.rx = 0; }
