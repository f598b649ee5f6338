/* gcc's bit built-ins (the gcc manual, "Other Built-in Functions Provided by GCC") as C code
   of the library: population count, parity, leading and trailing zero counts, the index of
   the lowest set bit, and byte swaps, for `unsigned int`, `unsigned long` and `unsigned long
   long` (the same 64 bits here). `__builtin_clz(0)` and `__builtin_ctz(0)` are undefined in
   gcc; here they give the width of the type. */

int __builtin_popcountll(unsigned long long x) {
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

int __builtin_popcountl(unsigned long x) {
    return __builtin_popcountll(x);
}

int __builtin_popcount(unsigned int x) {
    return __builtin_popcountll(x);
}

int __builtin_parityll(unsigned long long x) {
    return __builtin_popcountll(x) & 1;
}

int __builtin_parityl(unsigned long x) {
    return __builtin_popcountll(x) & 1;
}

int __builtin_parity(unsigned int x) {
    return __builtin_popcountll(x) & 1;
}

int __builtin_clzll(unsigned long long x) {
    int n = 0;
    if (x == 0)
        return 64;
    while (!(x & 0x8000000000000000ULL)) {
        x <<= 1;
        n++;
    }
    return n;
}

int __builtin_clzl(unsigned long x) {
    return __builtin_clzll(x);
}

int __builtin_clz(unsigned int x) {
    return x == 0 ? 32 : __builtin_clzll(x) - 32;
}

int __builtin_ctzll(unsigned long long x) {
    int n = 0;
    if (x == 0)
        return 64;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

int __builtin_ctzl(unsigned long x) {
    return __builtin_ctzll(x);
}

int __builtin_ctz(unsigned int x) {
    return x == 0 ? 32 : __builtin_ctzll(x);
}

int __builtin_ffsll(long long x) {
    return x == 0 ? 0 : __builtin_ctzll((unsigned long long)x) + 1;
}

int __builtin_ffsl(long x) {
    return __builtin_ffsll(x);
}

int __builtin_ffs(int x) {
    return x == 0 ? 0 : __builtin_ctzll((unsigned int)x) + 1;
}

unsigned short __builtin_bswap16(unsigned short x) {
    return (unsigned short)((x >> 8) | (x << 8));
}

unsigned int __builtin_bswap32(unsigned int x) {
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

unsigned long long __builtin_bswap64(unsigned long long x) {
    return ((unsigned long long)__builtin_bswap32((unsigned int)x) << 32)
           | __builtin_bswap32((unsigned int)(x >> 32));
}
