/* A function with more than 60,000 static 3-iteration paths (Roy & Srikant abort above
   60,000): the loop of `mix` holds six independent if/else diamonds, so one iteration has
   2^6 = 64 acyclic paths and three iterations about 64^3. `vmrun paths kiter_wide.c --k 1..4`
   prints the counts per K; `--profile=kiter:3` profiles `mix` (with a hash table, since its
   static path count is above the dense-array limit) without giving up.
   The branches follow the bits of a linear congruential generator, so each seed drives the
   loop through a different mix of the 64 paths. */
#include <stdio.h>

unsigned mix(unsigned seed, int n) {
    unsigned x = seed;
    unsigned h = 2166136261u;
    int i;
    for (i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        if (x & 0x10000u) h = h ^ 0x9e37u; else h = h + 7u;
        if (x & 0x20000u) h = h * 16777619u; else h = h ^ (h >> 13);
        if (x & 0x40000u) h = h + (x >> 24); else h = h - 3u;
        if (x & 0x80000u) h = (h << 5) | (h >> 27); else h = h ^ 0x55aa55aau;
        if (x & 0x100000u) h = h * 31u + 1u; else h = h ^ (x >> 7);
        if (x & 0x200000u) h = h + i; else h = h ^ (unsigned)i * 2654435761u;
    }
    return h;
}

/* How often each of the 64 ways through one iteration is taken, for one seed. */
void histogram(unsigned seed, int n) {
    int counts[64];
    unsigned x = seed;
    int i, used = 0, most = 0;
    for (i = 0; i < 64; i++) counts[i] = 0;
    for (i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        counts[(x >> 16) & 63u]++;
    }
    for (i = 0; i < 64; i++) {
        if (counts[i] > 0) used++;
        if (counts[i] > counts[most]) most = i;
    }
    printf("seed %u: %d of 64 ways used in %d iterations, most often way %d (%d times)\n",
           seed, used, n, most, counts[most]);
}

int main(void) {
    unsigned seeds[5] = {1u, 42u, 2024u, 65535u, 3735928559u};
    int lengths[4] = {0, 1, 3, 500};
    int s, l;
    for (s = 0; s < 5; s++) {
        for (l = 0; l < 4; l++) {
            printf("mix(%u, %d) = %u\n", seeds[s], lengths[l], mix(seeds[s], lengths[l]));
        }
        histogram(seeds[s], 500);
    }
    return 0;
}
