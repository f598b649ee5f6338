/* Runtime error: out-of-bounds write one past the end of a global array, through a pointer parameter indexed at run time. */
#include <stdio.h>

static int counts[5];
static int sentinel_after = 77;

static void set(int *base, int idx, int v) { base[idx] = v; }

int main(void) {
    for (int k = 0; k <= 5; k++) {
        set(counts, k, k * k);
        printf("set counts[%d]\n", k);
    }
    printf("never printed %d %d\n", counts[0], sentinel_after);
    return 0;
}
