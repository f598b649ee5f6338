/* Runtime error: member access through a NULL struct pointer (p->value where p ran off the end of a list). */
#include <stdio.h>

struct node {
    const char *name;
    int value;
    struct node *next;
};

static struct node *nth(struct node *head, int n) {
    while (n-- > 0 && head != NULL) head = head->next;
    return head;
}

int main(void) {
    struct node c = {"c", 3, NULL};
    struct node b = {"b", 2, &c};
    struct node a = {"a", 1, &b};
    printf("second is %s\n", nth(&a, 1)->name);
    struct node *p = nth(&a, 3);
    printf("fourth value %d\n", p->value);
    return 0;
}
