/* Runtime error: use after scope: a pointer to a local of a loop body kept after the loop
   (valid inside each iteration, dangling once the body's block has ended). */
#include <stdio.h>

static int largest_digit_sum(const int *values, int n, const int **where) {
    int best = -1;
    for (int i = 0; i < n; i++) {
        int sum = 0;
        for (int v = values[i]; v > 0; v /= 10) sum += v % 10;
        if (sum > best) {
            best = sum;
            *where = &sum;
        }
        printf("%d: digit sum %d (best %d)\n", values[i], **where, best);
    }
    printf("best %d, kept %d\n", best, **where);
    return best;
}

int main(void) {
    int values[4] = {123, 990, 45, 7001};
    const int *where = NULL;
    int best = largest_digit_sum(values, 4, &where);
    printf("best %d\n", best);
    return 0;
}
