/* Memory leak at exit (not a trap): a linked list's head pointer is overwritten, losing all five nodes. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

int main(void) {
    struct node *head = NULL;
    for (int i = 0; i < 5; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i;
        n->next = head;
        head = n;
    }
    int sum = 0;
    for (struct node *p = head; p; p = p->next) sum += p->value;
    printf("sum %d\n", sum);
    head = NULL;
    printf("head dropped\n");
    return sum == 10 ? 0 : 1;
}
