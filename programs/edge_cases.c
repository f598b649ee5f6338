/* Corner cases of well-defined C that are easy to get wrong: loops that end
   by wrap-around (unsigned and char counters), comparisons between signed
   and unsigned operands of different widths, promotions of char in switch
   and ?:, parameters shadowed in nested blocks, assignment chains across
   types, and evaluation of && / || / ?: as values. */
#include <stdio.h>

int shadow_param(int n) {
    int total = n;
    {
        int n = 5; /* shadows the parameter */
        total += n;
        {
            long n = 100000000000L;
            total += (int)(n / 100000000000L);
        }
        total += n;
    }
    return total + n;
}

int main(void) {
    /* an unsigned counter that counts down past zero wraps to a huge value */
    int steps = 0;
    for (unsigned u = 3; u < 10; u--) steps++;
    printf("unsigned countdown steps: %d\n", steps);
    /* a char counter that wraps from 127 to -128 ends the loop */
    steps = 0;
    for (char c = 120; c > 0; c++) steps++;
    printf("char wrap steps: %d\n", steps);
    /* unsigned long loop with multiplication overflow ending the loop */
    unsigned long p = 1;
    steps = 0;
    while (p != 0) {
        p *= 16;
        steps++;
    }
    printf("ulong overflow steps: %d\n", steps);

    /* comparisons: each operand pair converted by the usual arithmetic conversions */
    int neg = -1;
    unsigned one = 1;
    long lneg = -1;
    unsigned long ulone = 1;
    char cneg = -1;
    printf("int<unsigned via + 0u: %d\n", neg + 0u < one);
    printf("long<unsigned: %d\n", lneg < one);
    printf("long<ulong via + 0ul: %d\n", lneg + 0ul < ulone);
    printf("char<int: %d\n", cneg < 0);
    int k255 = 255;
    printf("char == 255: %d, (unsigned)char: %u\n", cneg == k255, (unsigned)cneg);
    printf("-1L == 0xffffffff: %d, (unsigned)-1 == 0xffffffff: %d\n", lneg == 0xffffffffL, (unsigned)neg == 0xffffffffu);

    /* char promotions in ?: and switch */
    char a = 'x', b = -3;
    int r = a > b ? a : b;
    printf("?: on chars gives int %d\n", r);
    switch (b) {
    case -3:
        printf("switch on char -3\n");
        break;
    case 'a':
        printf("wrong: 'a'\n");
        break;
    }
    printf("shadow_param(7) = %d\n", shadow_param(7));

    /* assignment chains convert at every step, right to left */
    char c8;
    int i32;
    long l64;
    double d;
    int three_hundred = 300;
    d = l64 = i32 = c8 = three_hundred;
    printf("chain: c8=%d i32=%d l64=%ld d=%.1f\n", c8, i32, l64, d);
    unsigned u32;
    unsigned long u64;
    u64 = u32 = -1;
    printf("chain unsigned: u32=%u u64=%lu\n", u32, u64);

    /* logical operators yield 0 or 1 of type int, usable in arithmetic */
    int x = 5, y = 0;
    printf("values: %d %d %d %d\n", (x && y) + 2, (x || y) * 10, !x - !y, (x > y) == (y < x));
    /* ?: chains with mixed types take the common type */
    double mix = x > 3 ? 1 : 0.5;
    long lm = x > 10 ? 1 : -1L;
    unsigned um = x > 10 ? 1u : 2;
    printf("mixed ?: %.2f %ld %u\n", mix, lm, um);
    /* division and remainder of negative numbers truncate toward zero */
    for (int n = -7; n <= 7; n += 7)
        for (int m = -2; m <= 2; m += 4) printf("%d/%d=%d %d%%%d=%d\n", n, m, n / m, n, m, n % m);
    /* unsigned division of a converted negative number */
    printf("(unsigned)-7 / 2 = %u, (unsigned long)-7 / 2 = %lu\n", (unsigned)-7 / 2, (unsigned long)-7 / 2);
    /* right shift of negative values is arithmetic (gcc), of unsigned logical */
    printf("-16 >> 2 = %d, (unsigned)-16 >> 2 = %u, -1L >> 40 = %ld\n", -16 >> 2, (unsigned)-16 >> 2, -1L >> 40);
    return 0;
}
