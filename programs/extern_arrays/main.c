/* Arrays declared `extern` without their size (`extern int a[];`), completed by their
   definition in another file or later in the same one, as old benchmarks share tables. */
#include <stdio.h>

extern int primes[];
extern const char *month_names[];
extern double weights[][3];

int sum_primes(int n);
const char *month(int i);
double weight(int row, int col);

static int first_prime(void) {
    return primes[0];
}

int primes[] = {2, 3, 5, 7, 11, 13};

int main(void) {
    int i;
    printf("%d %d %s %s\n", first_prime(), sum_primes(6), month(0), month(11));
    for (i = 0; i < 2; i++)
        printf("%g %g\n", weight(i, 0), weight(i, 2));
    printf("%zu %zu\n", sizeof primes, sizeof primes / sizeof primes[0]);
    return 0;
}
