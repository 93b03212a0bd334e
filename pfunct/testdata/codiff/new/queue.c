/* codiff's fixture, new build, queue.c: struct queue's len changed
 * type, one member is gone; queue_len lost its body's work. */
struct stats { long rx, tx; };
struct queue { struct stats st; long len; };
int queue_len(struct queue *q) { return 0; }
void queue_clear(struct queue *q) { q->len = 0; q->st.rx = 0; }
