/* Runtime error: out-of-bounds read one past the end of a heap array, through a pointer parameter (off-by-one loop). */
#include <stdio.h>
#include <stdlib.h>

static int sum_through(const int *p, int n) {
    int s = 0;
    for (int i = 0; i <= n; i++) s += p[i];
    return s;
}

int main(void) {
    int *a = malloc(10 * sizeof(int));
    for (int i = 0; i < 10; i++) a[i] = i + 1;
    printf("first %d last %d\n", a[0], a[9]);
    int s = sum_through(a, 10);
    printf("sum %d\n", s);
    free(a);
    return 0;
}
