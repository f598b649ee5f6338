/* Runtime error: a heap block sized for a small struct is accessed as a bigger struct; reading a member beyond the block. */
#include <stdio.h>
#include <stdlib.h>

struct small {
    int id;
    int flags;
};

struct big {
    int id;
    int flags;
    long extra[2];
};

int main(void) {
    struct small *s = malloc(sizeof *s);
    s->id = 7;
    s->flags = 3;
    struct big *b = (struct big *)(void *)s;
    printf("id via big view %d\n", b->id);
    printf("extra %ld\n", b->extra[1]);
    free(s);
    return 0;
}
