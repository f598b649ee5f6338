/* Runtime error: use after free through an array parameter: the block the parameter refers to
   is freed (through another pointer to it) while the parameter is still in use. */
#include <stdio.h>
#include <stdlib.h>

static int sum_then_release(int values[], int n, int *block) {
    int s = 0;
    for (int i = 0; i < n; i++) s += values[i];
    printf("sum %d\n", s);
    free(block);
    return s + values[1];
}

int main(void) {
    int *data = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++) data[i] = i + 1;
    printf("total %d\n", sum_then_release(data, 4, data));
    return 0;
}
