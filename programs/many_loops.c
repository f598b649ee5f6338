/* One function with 320 do-while loops, one after the other: more loops than an instrumented
 * version has path-end pairs (256), so `bl` ends the paths of the first loops in their
 * branches and those of the last ones in stubs; the function tiers up inside its first call
 * and switches to instrumented code by on-stack replacement. */
#include <stdio.h>

#define L(k) do { s += (i * (k) + 1) & 15; i++; } while (i & 3);
#define L4(k) L(k) L((k) + 1) L((k) + 2) L((k) + 3)
#define L16(k) L4(k) L4((k) + 4) L4((k) + 8) L4((k) + 12)
#define L64(k) L16(k) L16((k) + 16) L16((k) + 32) L16((k) + 48)
#define L256(k) L64(k) L64((k) + 64) L64((k) + 128) L64((k) + 192)

long many(long s, int i) {
    L256(0)
    L64(256)
    return s + i;
}

int main(void) {
    long total = 0;
    for (int round = 0; round < 12; round++) {
        total = many(total, round * 4) % 1000003;
        printf("round %d: %ld\n", round, total);
    }
    return 0;
}
