/* Bitwise operators & | ^ ~ and shifts << >> on signed and unsigned types,
   including arithmetic right shift of negative values. */
#include <stdio.h>

int main(void) {
    int a = 0x5a5a, b = -0x1234;
    unsigned ua = 0xdeadbeefu, ub = 0x0f0f0f0fu;
    long la = 0x123456789L, lb = -0x7777777777L;
    unsigned long ula = 0xfedcba9876543210ul, ulb = 0xfful;
    char ca = 0x35, cb = -0x22;

    printf("int: & %d | %d ^ %d ~ %d ~ %d\n", a & b, a | b, a ^ b, ~a, ~b);
    printf("int hex: %x %x %x\n", (unsigned)(a & b), (unsigned)(a | b), (unsigned)~b);
    printf("unsigned: & %x | %x ^ %x ~ %x\n", ua & ub, ua | ub, ua ^ ub, ~ua);
    printf("long: & %ld | %ld ^ %ld ~ %ld\n", la & lb, la | lb, la ^ lb, ~la);
    printf("ulong: & %lx | %lx ^ %lx ~ %lx\n", ula & ulb, ula | ulb, ula ^ ulb, ~ula);
    printf("char: & %d | %d ^ %d ~ %d\n", ca & cb, ca | cb, ca ^ cb, ~cb);
    printf("mixed int/unsigned: %u %u\n", b & ua, b | ub);
    printf("mixed int/long: %ld %ld\n", b & la, b ^ lb);
    printf("mixed char/ulong: %lu\n", cb & ula);

    for (int s = 0; s < 32; s += 3) {
        printf("shift %2d: %d %d %u %u %ld %lu\n", s, a << (s % 16), b >> s,
               ua << s, ua >> s, la >> s, ula >> s);
    }
    for (int s = 32; s < 64; s += 5) {
        printf("wide shift %2d: %ld %ld %lu %lu\n", s, (la & 0x7) << (s - 4), lb >> s, ula << s, ula >> s);
    }
    char c = -1;
    printf("char -1 >> 1 = %d, char 64 << 2 = %d\n", c >> 1, (c & 64) << 2);
    unsigned one = 1;
    printf("1u << 31 = %u\n", one << 31);
    printf("1ul << 63 = %lu\n", (unsigned long)one << 63);
    printf("-1 >> 31 = %d, -1L >> 63 = %ld\n", (a - a - 1) >> 31, (la - la - 1) >> 63);
    /* shift result type is the promoted left operand: char << int gives int */
    char small = 100;
    printf("char 100 << 4 = %d\n", small << 4);
    /* shift count of a different type than the left operand */
    long cnt = 4;
    unsigned ucnt = 3;
    printf("int << long = %d, long >> unsigned = %ld\n", a << cnt, lb >> ucnt);
    /* precedence: shifts bind looser than + and tighter than < */
    printf("%d %d %d\n", 1 << (2 + 1), (1 << 2) + 1, (1 << 3) < (1 << 4));
    printf("%d %d\n", (6 & 3) == 2, 6 & (3 == 3));
    printf("%x\n", (0xf0 | 0x0f) ^ (0xff & 0x3c));
    return 0;
}
