/* Runtime error: use after free through a stale pointer into a buffer that realloc moved (the old block is freed). */
#include <stdio.h>
#include <stdlib.h>

static int *grow(int *p, size_t n) { return realloc(p, n * sizeof *p); }

static int read_at(const int *p) { return *p; }

int main(void) {
    int *buf = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++) buf[i] = i * i;
    int *third = &buf[2];
    printf("third %d\n", *third);
    int *bigger = grow(buf, 4096);
    if (bigger == NULL) return 1;
    bigger[4000] = 1;
    printf("grown, first %d\n", bigger[0]);
    printf("stale third %d\n", read_at(third));
    free(bigger);
    return 0;
}
