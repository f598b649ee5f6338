/* A linked-list queue of malloc'd nodes: enqueue/dequeue with head and tail pointers, a bank-teller simulation and a round-robin scheduler. */
#include <stdio.h>
#include <stdlib.h>

typedef struct QNode {
    int id;
    int arrival;
    int work;
    struct QNode *next;
} QNode;

typedef struct {
    QNode *head, *tail;
    int size, max_size;
} Queue;

static void q_init(Queue *q) {
    q->head = q->tail = NULL;
    q->size = q->max_size = 0;
}

static void q_push(Queue *q, int id, int arrival, int work) {
    QNode *n = malloc(sizeof *n);
    n->id = id;
    n->arrival = arrival;
    n->work = work;
    n->next = NULL;
    if (q->tail) q->tail->next = n;
    else q->head = n;
    q->tail = n;
    if (++q->size > q->max_size) q->max_size = q->size;
}

/* Moves the head node out; the caller frees or re-queues it. */
static QNode *q_pop(Queue *q) {
    QNode *n = q->head;
    if (n == NULL) return NULL;
    q->head = n->next;
    if (q->head == NULL) q->tail = NULL;
    q->size--;
    n->next = NULL;
    return n;
}

static void q_push_node(Queue *q, QNode *n) {
    n->next = NULL;
    if (q->tail) q->tail->next = n;
    else q->head = n;
    q->tail = n;
    if (++q->size > q->max_size) q->max_size = q->size;
}

static unsigned seed = 12345;
static int rnd(int m) {
    seed = seed * 1103515245u + 12345u;
    return (int)((seed >> 16) % (unsigned)m);
}

int main(void) {
    Queue line;
    q_init(&line);
    int busy_until[3] = {0, 0, 0};
    long total_wait = 0;
    int served = 0, next_id = 1, longest_wait = 0;
    for (int t = 0; t < 500; t++) {
        if (rnd(10) < 6) q_push(&line, next_id++, t, 2 + rnd(6));
        for (int k = 0; k < 3; k++) {
            if (busy_until[k] <= t && line.head != NULL) {
                QNode *c = q_pop(&line);
                int wait = t - c->arrival;
                total_wait += wait;
                if (wait > longest_wait) longest_wait = wait;
                busy_until[k] = t + c->work;
                served++;
                free(c);
            }
        }
    }
    printf("bank: arrived %d served %d left in line %d max line %d\n", next_id - 1, served, line.size,
           line.max_size);
    printf("bank: avg wait %.3f longest %d\n", served ? (double)total_wait / served : 0.0, longest_wait);
    int drained = 0;
    for (QNode *c; (c = q_pop(&line)) != NULL;) {
        drained += c->id % 7;
        free(c);
    }
    printf("drained checksum %d empty %d\n", drained, line.head == NULL && line.tail == NULL);

    Queue ready;
    q_init(&ready);
    for (int p = 0; p < 6; p++) q_push(&ready, p, 0, 3 + (p * 5) % 11);
    int clock = 0, quantum = 4, switches = 0;
    int finish[6];
    while (ready.head != NULL) {
        QNode *p = q_pop(&ready);
        int slice = p->work < quantum ? p->work : quantum;
        clock += slice;
        p->work -= slice;
        switches++;
        if (p->work > 0) {
            q_push_node(&ready, p);
        } else {
            finish[p->id] = clock;
            free(p);
        }
    }
    printf("round robin: switches %d clock %d finish:", switches, clock);
    for (int p = 0; p < 6; p++) printf(" %d", finish[p]);
    printf("\n");
    return switches % 10 + 3;
}
