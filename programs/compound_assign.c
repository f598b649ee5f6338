/* Every compound assignment operator on every scalar type, including the
   conversions back to narrow types (char += int wraps) and the value of an
   assignment used as an expression. */
#include <stdio.h>

int g = 10;
double gd = 1.5;
long garr[3] = {1, 2, 3};

int main(void) {
    int i = 100;
    unsigned u = 100;
    long l = 100;
    unsigned long ul = 100;
    char c = 100;
    double d = 100.0;

    i += 5; i -= 3; i *= 7; i /= 4; i %= 50;
    printf("int: %d\n", i);
    i <<= 3; printf("int <<= %d\n", i);
    i >>= 1; printf("int >>= %d\n", i);
    i &= 0x3c; i |= 0x101; i ^= 0xff;
    printf("int bitwise: %d\n", i);

    u -= 200; printf("unsigned -= %u\n", u);
    u *= 3; u /= 5; u %= 1000000;
    printf("unsigned: %u\n", u);
    u <<= 4; u >>= 2; u &= 0xffff0; u |= 3; u ^= 0x55;
    printf("unsigned bitwise: %u\n", u);

    l *= 1000000000L; l *= 1000; l += 7; l /= 3; l %= 1000000007;
    printf("long: %ld\n", l);
    l <<= 20; l >>= 5; l ^= -1; l &= 0xfffffffff; l |= 0x10;
    printf("long bitwise: %ld\n", l);

    ul -= 101; printf("ulong -= %lu\n", ul);
    ul /= 16; ul *= 3; ul %= 1000000000007ul;
    printf("ulong: %lu\n", ul);
    ul <<= 7; ul >>= 3; ul &= 0xfff; ul |= 1; ul ^= 6;
    printf("ulong bitwise: %lu\n", ul);

    c += 50; printf("char += 50: %d\n", c);
    c -= 100; printf("char -= 100: %d\n", c);
    c *= 3; printf("char *= 3: %d\n", c);
    c /= 2; printf("char /= 2: %d\n", c);
    c %= 7; printf("char %%= 7: %d\n", c);
    c = 5; c <<= 5; printf("char <<= 5: %d\n", c);
    c >>= 2; printf("char >>= 2: %d\n", c);
    c |= 0x41; c &= 0x7e; c ^= 0x0f; printf("char bitwise: %d\n", c);
    c += 0.75; printf("char += 0.75: %d\n", c);

    d += 0.5; d -= 25.25; d *= 1.5; d /= 4.0;
    printf("double: %.6f\n", d);

    /* compound assignment where the right side is double and the left is int */
    i = 10;
    i += 2.7; printf("int += 2.7: %d\n", i);
    i *= 1.5; printf("int *= 1.5: %d\n", i);
    i -= 0.5; printf("int -= 0.5: %d\n", i);
    i /= 0.3; printf("int /= 0.3: %d\n", i);
    /* unsigned op= negative int */
    u = 10;
    u += -3; printf("unsigned += -3: %u\n", u);
    u *= -1; printf("unsigned *= -1: %u\n", u);
    /* int op= unsigned: arithmetic in unsigned, stored back as int */
    i = -20;
    i /= 3u; printf("int /= 3u: %d\n", i);
    i = -20;
    i %= 7u; printf("int %%= 7u: %d\n", i);
    i = -20;
    i >>= 2u; printf("int >>= 2u: %d\n", i);
    /* int op= long */
    i = 1000000;
    i *= 100000L; printf("int *= 100000L: %d\n", i);

    /* value of assignments */
    int a, b, e;
    a = b = e = 7;
    printf("chain: %d %d %d\n", a, b, e);
    a += b -= e *= 2;
    printf("nested: %d %d %d\n", a, b, e);
    printf("value of (c = 300): %d\n", c = 299 + (i > 0));
    printf("value of (d += 1): %.1f\n", d += 1);

    g += 5; g *= g; printf("global: %d\n", g);
    gd *= 3; gd -= 0.25; printf("global double: %.3f\n", gd);
    garr[1] += 40; garr[2] <<= 10; garr[0] -= garr[1] + garr[2];
    printf("global array: %ld %ld %ld\n", garr[0], garr[1], garr[2]);
    int arr[4] = {1, 2, 3, 4};
    for (int k = 0; k < 4; k++) {
        arr[k] *= arr[(k + 1) % 4];
        arr[(k + 2) % 4] += arr[k];
    }
    printf("local array: %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3]);
    return 0;
}
