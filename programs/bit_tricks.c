/* Bit manipulation: popcount (three ways), parity, bit reversal, leading
   and trailing zero counts, powers of two, Gray code, bit-board tricks,
   rotations and byte swaps on unsigned and unsigned long. */
#include <stdio.h>

int popcount_naive(unsigned x) {
    int c = 0;
    while (x) {
        c += x & 1;
        x >>= 1;
    }
    return c;
}

int popcount_kernighan(unsigned long x) {
    int c = 0;
    for (; x; c++) x &= x - 1;
    return c;
}

int popcount_swar(unsigned x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)((x * 0x01010101u) >> 24);
}

unsigned reverse_bits(unsigned x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

int clz(unsigned x) {
    if (x == 0) return 32;
    int n = 0;
    if ((x & 0xffff0000u) == 0) { n += 16; x <<= 16; }
    if ((x & 0xff000000u) == 0) { n += 8; x <<= 8; }
    if ((x & 0xf0000000u) == 0) { n += 4; x <<= 4; }
    if ((x & 0xc0000000u) == 0) { n += 2; x <<= 2; }
    if ((x & 0x80000000u) == 0) n += 1;
    return n;
}

int ctz(unsigned long x) {
    if (x == 0) return 64;
    int n = 0;
    while ((x & 1) == 0) {
        x >>= 1;
        n++;
    }
    return n;
}

unsigned next_pow2(unsigned x) {
    x--;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return x + 1;
}

unsigned rotl(unsigned x, int r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }

unsigned long bswap64(unsigned long x) {
    unsigned long r = 0;
    for (int i = 0; i < 8; i++) {
        r = (r << 8) | (x & 0xff);
        x >>= 8;
    }
    return r;
}

int main(void) {
    unsigned vals[8] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xdeadbeefu, 1000u, 0x00f0f000u};
    for (int i = 0; i < 8; i++) {
        unsigned v = vals[i];
        printf("%08x: pop %d/%d/%d parity %d rev %08x clz %d ctz %d np2 %u rotl7 %08x\n", v,
               popcount_naive(v), popcount_kernighan(v), popcount_swar(v), popcount_swar(v) & 1,
               reverse_bits(v), clz(v), ctz(v), next_pow2(v), rotl(v, 7));
    }
    for (unsigned g = 0; g < 16; g++) {
        unsigned gray = g ^ (g >> 1);
        unsigned back = gray;
        for (unsigned s = 1; s < 32; s <<= 1) back ^= back >> s;
        printf("%2u gray %2u back %2u bits ", g, gray, back);
        for (int b = 3; b >= 0; b--) putchar((gray >> b) & 1 ? '1' : '0');
        putchar('\n');
    }
    unsigned long big = 0x0123456789abcdeful;
    printf("bswap64 %016lx -> %016lx, pop %d, ctz %d\n", big, bswap64(big), popcount_kernighan(big),
           ctz(big << 12));
    /* isolate lowest set bit, clear it, power-of-two test, sign tricks */
    for (int x = -8; x <= 8; x += 3) {
        unsigned u = (unsigned)x;
        int is_pow2 = x > 0 && (x & (x - 1)) == 0;
        int sgn = (x > 0) - (x < 0);
        int absx = (x ^ (x >> 31)) - (x >> 31);
        printf("x=%3d low=%08x cleared=%08x pow2=%d sign=%2d abs=%d\n", x, u & -u, u & (u - 1), is_pow2, sgn,
               absx);
    }
    /* subset enumeration with masks */
    int items[5] = {3, 5, 7, 11, 13};
    int hits = 0;
    for (unsigned mask = 0; mask < 32; mask++) {
        int sum = 0;
        for (int b = 0; b < 5; b++)
            if (mask & (1u << b)) sum += items[b];
        if (sum == 21) {
            hits++;
            printf("subset %2u sums to 21:", mask);
            for (int b = 0; b < 5; b++)
                if (mask >> b & 1) printf(" %d", items[b]);
            printf("\n");
        }
    }
    printf("hits = %d\n", hits);
    /* xorshift state mixing */
    unsigned long h = 0;
    for (int i = 0; i < 1000; i++) {
        h ^= (unsigned long)i * 0x9e3779b97f4a7c15ul;
        h = (h << 13 | h >> 51) * 5;
    }
    printf("mix = %016lx\n", h);
    return 0;
}
