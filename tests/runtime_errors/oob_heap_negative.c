/* Runtime error: out-of-bounds read at a negative index (p[-1]) before the start of a heap block. */
#include <stdio.h>
#include <stdlib.h>

static long previous(const long *p) { return p[-1]; }

int main(void) {
    long *v = malloc(4 * sizeof(long));
    for (int i = 0; i < 4; i++) v[i] = 100 * (i + 1);
    printf("previous of v[2] is %ld\n", previous(v + 2));
    printf("previous of v[0] is %ld\n", previous(v));
    free(v);
    return 0;
}
