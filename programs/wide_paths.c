/* A function with 2^18 Ball-Larus paths per loop iteration (18 independent decisions): more
 * than dense path counters take (2^16), so `bl` counts its paths in the hash table while
 * `main`'s few paths go to dense counters; the loops run long enough to tier up and switch
 * mid-loop by on-stack replacement. */
#include <stdio.h>

unsigned wide(unsigned seed, int rounds) {
    unsigned h = 0;
    int i = 0;
    while (i < rounds) {
        seed = seed * 1103515245u + 12345u;
        unsigned b = seed >> 8;
        if (b & 1u) h += 1; else h ^= 3u;
        if (b & 2u) h += 7; else h ^= 5u;
        if (b & 4u) h += 11; else h ^= 9u;
        if (b & 8u) h += 13; else h ^= 17u;
        if (b & 16u) h += 19; else h ^= 33u;
        if (b & 32u) h += 23; else h ^= 65u;
        if (b & 64u) h += 29; else h ^= 129u;
        if (b & 128u) h += 31; else h ^= 257u;
        if (b & 256u) h += 37; else h ^= 513u;
        if (b & 512u) h += 41; else h ^= 1025u;
        if (b & 1024u) h += 43; else h ^= 2049u;
        if (b & 2048u) h += 47; else h ^= 4097u;
        if (b & 4096u) h += 53; else h ^= 8193u;
        if (b & 8192u) h += 59; else h ^= 16385u;
        if (b & 16384u) h += 61; else h ^= 32769u;
        if (b & 32768u) h += 67; else h ^= 65537u;
        if (b & 65536u) h += 71; else h ^= 131073u;
        if ((b & 131072u) && (seed & 3u)) h += 73; else h ^= 262145u;
        i++;
    }
    return h;
}

int main(void) {
    unsigned total = 0;
    int odd = 0;
    for (int round = 0; round < 1500; round++) {
        unsigned h = wide((unsigned)round * 2654435761u, 3 + round % 7);
        if ((h >> 3) & 1u) odd++;
        total ^= h;
    }
    printf("total %u, odd %d\n", total, odd);
    return 0;
}
