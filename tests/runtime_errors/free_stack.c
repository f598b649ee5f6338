/* Runtime error: free of a pointer to a local (stack) array. */
#include <stdio.h>
#include <stdlib.h>

static void release(void *p) { free(p); }

int main(void) {
    int local[4] = {1, 2, 3, 4};
    int *heap = malloc(sizeof local);
    for (int i = 0; i < 4; i++) heap[i] = local[i] * 2;
    printf("heap[3] = %d\n", heap[3]);
    release(heap);
    int *which = local;
    release(which);
    printf("not reached\n");
    return 0;
}
