/* nsearch.c - deep loop nests: a 6-level nested search and 4-level lattice counts.

   Algorithms:
   - search_plain: searches a 6-dimensional array (5^6 = 15625 keys) for a
     key with six nested loops and returns from the innermost loop as soon
     as the key is found (in the style of the Malardalen "ns" benchmark, two
     levels deeper); an absent key scans everything.
   - search_pruned: the same search using per-slice bounds precomputed for
     the first three levels (minimum and maximum key of every 5^5, 5^4 and
     5^3 sub-array): a slice whose range excludes the key is skipped with
     `continue`, so the depth reached depends on the key.
   - Lattice counting: r4(n), the number of ways to write n as a sum of four
     squares of integers (signs and order count), for every n <= LIMIT, by a
     4-level loop over (a, b, c, d) with early exits when the partial sum of
     squares exceeds the limit; checked against Jacobi's four-square theorem
     r4(n) = 8 * (sum of the divisors of n that are not multiples of 4).
     A second 4-level nest counts lattice points (a, b, c, d) of a 4-D box
     with c <= a + b, c*d < a*b and a + b + c + d divisible by 3.

   Data: the array keys come from a 32-bit LCG, with a bias so that slices
   have different ranges (the pruning is effective on some and useless on
   others); the queries cycle through keys present at shallow and deep
   positions and absent keys, with random choices.

   Control flow for path profiling: six nested loops with an early return
   from the innermost one; three levels of data-dependent `continue` in the
   pruned variant; the lattice nest has a `break` at each of the inner three
   levels (triangular bounds) and a data-dependent test in the innermost
   body; the divisor-sum check is a two-level nest with a modulo branch; the
   search functions are called from a query loop with a switch on the query
   kind.

   Loop-heavy: yes (all the time is in the deep loop nests). */
#include <stdio.h>

unsigned rng_state = 777u;

unsigned next_random(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 1;
}

int keys[5][5][5][5][5][5];
int min1[5], max1[5];
int min2[5][5], max2[5][5];
int min3[5][5][5], max3[5][5][5];
long visited_plain, visited_pruned;

const int LIMIT = 1200;
int r4[1201];

/* Index (base 5, six digits) of key, or -1. */
int search_plain(int key) {
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 5; c++)
                for (int d = 0; d < 5; d++)
                    for (int e = 0; e < 5; e++)
                        for (int f = 0; f < 5; f++) {
                            visited_plain++;
                            if (keys[a][b][c][d][e][f] == key)
                                return ((((a * 5 + b) * 5 + c) * 5 + d) * 5 + e) * 5 + f;
                        }
    return -1;
}

int search_pruned(int key) {
    for (int a = 0; a < 5; a++) {
        if (key < min1[a] || key > max1[a])
            continue;
        for (int b = 0; b < 5; b++) {
            if (key < min2[a][b] || key > max2[a][b])
                continue;
            for (int c = 0; c < 5; c++) {
                if (key < min3[a][b][c] || key > max3[a][b][c])
                    continue;
                for (int d = 0; d < 5; d++)
                    for (int e = 0; e < 5; e++)
                        for (int f = 0; f < 5; f++) {
                            visited_pruned++;
                            if (keys[a][b][c][d][e][f] == key)
                                return ((((a * 5 + b) * 5 + c) * 5 + d) * 5 + e) * 5 + f;
                        }
            }
        }
    }
    return -1;
}

void fill_keys(void) {
    for (int a = 0; a < 5; a++) {
        min1[a] = 1 << 30;
        max1[a] = -1;
        for (int b = 0; b < 5; b++) {
            min2[a][b] = 1 << 30;
            max2[a][b] = -1;
            for (int c = 0; c < 5; c++) {
                int lo = 1 << 30, hi = -1;
                /* Slices get a base offset so that their ranges differ. */
                int base = (a * 25 + b * 5 + c) * 4000 * (int)(next_random() % 3u);
                for (int d = 0; d < 5; d++)
                    for (int e = 0; e < 5; e++)
                        for (int f = 0; f < 5; f++) {
                            int v = base + (int)(next_random() % 200000u);
                            keys[a][b][c][d][e][f] = v;
                            if (v < lo)
                                lo = v;
                            if (v > hi)
                                hi = v;
                        }
                min3[a][b][c] = lo;
                max3[a][b][c] = hi;
                if (lo < min2[a][b])
                    min2[a][b] = lo;
                if (hi > max2[a][b])
                    max2[a][b] = hi;
            }
            if (min2[a][b] < min1[a])
                min1[a] = min2[a][b];
            if (max2[a][b] > max1[a])
                max1[a] = max2[a][b];
        }
    }
}

/* r4(n) for all n <= LIMIT by enumerating a, b, c, d in [-m, m]. */
void count_four_squares(void) {
    int m = 0;
    while ((m + 1) * (m + 1) <= LIMIT)
        m++;
    for (int n = 0; n <= LIMIT; n++)
        r4[n] = 0;
    for (int a = -m; a <= m; a++) {
        int sa = a * a;
        for (int b = -m; b <= m; b++) {
            int sb = sa + b * b;
            if (sb > LIMIT)
                continue;
            for (int c = -m; c <= m; c++) {
                int sc = sb + c * c;
                if (sc > LIMIT)
                    continue;
                for (int d = -m; d <= m; d++) {
                    int sd = sc + d * d;
                    if (sd <= LIMIT)
                        r4[sd]++;
                }
            }
        }
    }
}

/* Jacobi: r4(n) = 8 * sum of divisors of n not divisible by 4 (n >= 1). */
int jacobi_failures(void) {
    int failures = 0;
    for (int n = 1; n <= LIMIT; n++) {
        int sum = 0;
        for (int d = 1; d <= n; d++)
            if (n % d == 0 && d % 4 != 0)
                sum += d;
        if (r4[n] != 8 * sum)
            failures++;
    }
    return failures + (r4[0] != 1);
}

/* Points of [0,size)^4 with c <= a + b, c*d < a*b and a+b+c+d divisible
   by 3; the loops over c and d stop as soon as their bound is exceeded. */
long count_box(int size) {
    long count = 0;
    for (int a = 0; a < size; a++)
        for (int b = 0; b < size; b++) {
            int ab = a * b;
            if (ab == 0)
                continue;
            for (int c = 0; c < size; c++) {
                if (c > a + b)
                    break;
                for (int d = 0; d < size; d++) {
                    if (c * d >= ab)
                        break;
                    if ((a + b + c + d) % 3 == 0)
                        count++;
                }
            }
        }
    return count;
}

int main(void) {
    fill_keys();
    int errors = 0;
    unsigned position_hash = 0u;
    int found = 0, absent = 0;
    for (int q = 0; q < 1400; q++) {
        unsigned r = next_random();
        int key;
        switch (q % 5) {
        case 0: /* present, early in the array */
            key = keys[0][r % 2u][(r >> 3) % 5u][(r >> 6) % 5u][(r >> 9) % 5u][(r >> 12) % 5u];
            break;
        case 1: case 2: /* present, anywhere */
            key = keys[r % 5u][(r >> 3) % 5u][(r >> 6) % 5u][(r >> 9) % 5u][(r >> 12) % 5u][(r >> 15) % 5u];
            break;
        case 3: /* probably absent, inside the value range */
            key = (int)(r % 700000u);
            break;
        default: /* absent, beyond every slice */
            key = 2000000000 - (int)(r % 1000u);
            break;
        }
        int plain = search_plain(key);
        int pruned = search_pruned(key);
        /* Both find the first occurrence in the same order, or nothing. */
        if (plain != pruned)
            errors++;
        if (plain >= 0)
            found++;
        else
            absent++;
        position_hash = position_hash * 31u + (unsigned)(plain + 1);
    }
    printf("search: found %d absent %d positions %08x\n", found, absent, position_hash);
    printf("visited: plain %ld pruned %ld\n", visited_plain, visited_pruned);

    count_four_squares();
    int jacobi = jacobi_failures();
    printf("r4: r4(1)=%d r4(2)=%d r4(12)=%d r4(100)=%d r4(1199)=%d r4(1200)=%d, "
           "Jacobi failures %d\n",
           r4[1], r4[2], r4[12], r4[100], r4[1199], r4[1200], jacobi);
    for (int size = 10; size <= 50; size += 10)
        printf("box %d: %ld points\n", size, count_box(size));
    return errors == 0 && jacobi == 0 ? 0 : 1;
}
