/* Twin benchmark: sieve of Eratosthenes, repeated. */
#include <stdio.h>

char composite[1000001];

int main(void) {
    int n = 1000000;
    for (int round = 0; round < 12; round++) {
        for (int i = 0; i <= n; i++) composite[i] = 0;
        int count = 0;
        long sum = 0;
        for (int i = 2; i <= n; i++) {
            if (!composite[i]) {
                count++;
                sum += i;
                for (int j = i * 2; j <= n; j += i) composite[j] = 1;
            }
        }
        printf("round %d: %d primes up to %d, sum %ld\n", round, count, n, sum);
        n -= 50000;
    }
    return 0;
}
