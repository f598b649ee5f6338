/* Sieve of Eratosthenes, prime counting, twin primes, Goldbach pairs,
   trial division and gcd/lcm, modular exponentiation with unsigned long. */
#include <stdio.h>

char composite[20001];

int gcd(int a, int b) {
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

long gcd_rec(long a, long b) { return b == 0 ? a : gcd_rec(b, a % b); }

unsigned long powmod(unsigned long base, unsigned long e, unsigned long m) {
    unsigned long r = 1;
    base %= m;
    while (e > 0) {
        if (e & 1) r = r * base % m;
        base = base * base % m;
        e >>= 1;
    }
    return r;
}

int is_prime_trial(int n) {
    if (n < 2) return 0;
    if (n % 2 == 0) return n == 2;
    for (int d = 3; d * d <= n; d += 2)
        if (n % d == 0) return 0;
    return 1;
}

int main(void) {
    int n = 20000;
    composite[0] = composite[1] = 1;
    for (int i = 2; i * i <= n; i++)
        if (!composite[i])
            for (int j = i * i; j <= n; j += i) composite[j] = 1;
    int count = 0, twins = 0, last = 0;
    for (int i = 2; i <= n; i++) {
        if (!composite[i]) {
            count++;
            if (i - last == 2) twins++;
            last = i;
        }
    }
    printf("primes <= %d: %d, twin pairs: %d, largest: %d\n", n, count, twins, last);
    for (int lim = 10; lim <= n; lim *= 10) {
        int c = 0;
        for (int i = 2; i <= lim; i++) c += !composite[i];
        printf("pi(%d) = %d\n", lim, c);
    }
    int mismatches = 0;
    for (int i = 0; i < 3000; i++)
        if (is_prime_trial(i) != !composite[i]) mismatches++;
    printf("trial division mismatches: %d\n", mismatches);
    for (int e = 4; e <= 40; e += 6) {
        for (int p = 2; p <= e / 2; p++) {
            if (!composite[p] && !composite[e - p]) {
                printf("%d = %d + %d\n", e, p, e - p);
                break;
            }
        }
    }
    printf("gcd(1071, 462) = %d, gcd(-48, 18) = %d\n", gcd(1071, 462), gcd(-48, 18));
    printf("gcd_rec(2^40, 6^15) = %ld\n", gcd_rec(1099511627776L, 470184984576L));
    int l = 1;
    for (int i = 1; i <= 20; i++) l = l / gcd(l, i) * i;
    printf("lcm(1..20) wraps to %d\n", l);
    long ll = 1;
    for (int i = 1; i <= 20; i++) ll = ll / gcd_rec(ll, i) * i;
    printf("lcm(1..20) = %ld\n", ll);
    printf("2^100 mod 1e9+7 = %lu\n", powmod(2, 100, 1000000007ul));
    printf("3^(p-1) mod p = %lu (p = 1000003)\n", powmod(3, 1000002, 1000003));
    /* Fermat test agrees with the sieve for small odd numbers */
    int fermat_liars = 0;
    for (int i = 3; i < 3000; i += 2)
        if (powmod(2, (unsigned long)(i - 1), (unsigned long)i) == 1 && composite[i]) {
            fermat_liars++;
            printf("pseudoprime: %d\n", i);
        }
    printf("fermat liars: %d\n", fermat_liars);
    return 0;
}
