/* gcc's bit built-ins (population count, parity, leading and trailing zeros, ffs, byte swaps),
   the library functions behind __builtin_ names (no header needed), __builtin_unreachable. */
#include <stdio.h>
int main(void) {
    unsigned vals[] = {1u, 2u, 3u, 0x80000000u, 0xffffffffu, 0x00f0f000u, 12345678u};
    unsigned long long w = 0x0123456789abcdefULL;
    char buf[8];
    int i;
    for (i = 0; i < 7; i++) {
        unsigned v = vals[i];
        printf("%u: %d %d %d %d %d %d %x\n", v, __builtin_popcount(v), __builtin_parity(v), __builtin_clz(v), __builtin_ctz(v), __builtin_ffs((int)v), __builtin_clzll(v), __builtin_bswap32(v));
    }
    printf("%d %d %d %d %llx %x\n", __builtin_popcountll(w), __builtin_clzl(w), __builtin_ctzll(w << 4), __builtin_ffsll(-8LL), (unsigned long long)__builtin_bswap64(w), __builtin_bswap16(0x1234));
    __builtin_memset(buf, 'x', 7);
    buf[7] = 0;
    printf("%s %zu %g\n", buf, __builtin_strlen(buf), __builtin_fabs(-2.5));
    if (w == 0) __builtin_unreachable();
    printf("%ld\n", __builtin_expect(w != 0, 1));
    return 0;
}
