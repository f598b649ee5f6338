/* Collatz sequences: longest chain below a bound with a memo table
   of ints, peak values in long, and a histogram of stopping times. */
#include <stdio.h>

int memo[30000];

int steps(long n) {
    if (n < 30000 && memo[n] != 0) return memo[n];
    int s;
    if (n == 1) s = 0;
    else if (n % 2 == 0) s = 1 + steps(n / 2);
    else s = 1 + steps(3 * n + 1);
    if (n < 30000) memo[n] = s;
    return s;
}

long peak(long n) {
    long p = n;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        if (n > p) p = n;
    }
    return p;
}

int main(void) {
    int best = 1, best_steps = 0;
    int hist[10] = {0};
    for (int n = 1; n < 30000; n++) {
        int s = steps(n);
        if (s > best_steps) {
            best_steps = s;
            best = n;
        }
        hist[s / 40 < 9 ? s / 40 : 9]++;
    }
    printf("longest chain below 30000: %d with %d steps\n", best, best_steps);
    for (int b = 0; b < 10; b++) printf("steps %3d-%3d: %d\n", b * 40, b * 40 + 39, hist[b]);
    int starts[6] = {27, 97, 871, 6171, 77031, 837799};
    for (int i = 0; i < 6; i++)
        printf("collatz(%d): %d steps, peak %ld\n", starts[i], steps(starts[i]), peak(starts[i]));
    /* print the trajectory of 27 compactly */
    long n = 27;
    int col = 0;
    while (n != 1) {
        printf("%ld ", n);
        if (++col % 12 == 0) printf("\n");
        n = n % 2 ? 3 * n + 1 : n / 2;
    }
    printf("1\n");
    return 0;
}
