/* Runtime error: double free through two struct fields that alias the same heap block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    char *first;
    char *second;
};

static void pair_free(struct pair *p) {
    free(p->first);
    free(p->second);
}

int main(void) {
    struct pair p;
    p.first = malloc(6);
    strcpy(p.first, "twice");
    p.second = p.first;
    printf("%s and %s\n", p.first, p.second);
    pair_free(&p);
    printf("not reached\n");
    return 0;
}
