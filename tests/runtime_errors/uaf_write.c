/* Runtime error: use after free (write) to a list node's member after the node was freed while unlinking. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static void release(void *p) { free(p); }

static void set_next(struct node *n, struct node *next) { n->next = next; }

int main(void) {
    struct node *head = NULL;
    for (int i = 1; i <= 3; i++) head = push(head, i * 10);
    struct node *first = head;
    printf("head value %d\n", first->value);
    head = head->next;
    release(first);
    set_next(first, NULL);
    printf("not reached %d\n", head->value);
    return 0;
}
