/* Twin benchmark: nested integer loops with branches. */
#include <stdio.h>

int main(void) {
    long total = 0;
    int count = 0;
    for (int i = 0; i < 3000; i++) {
        for (int j = 0; j < 5000; j++) {
            int v = (i * j + i + j) % 7;
            if (v == 0) {
                total += i;
            } else if (v < 3) {
                total -= j;
            } else {
                count++;
            }
        }
        if (i % 500 == 0) printf("i=%d total=%ld count=%d\n", i, total, count);
    }
    printf("total=%ld count=%d\n", total, count);
    return 0;
}
