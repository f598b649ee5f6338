/* Integer promotions, usual arithmetic conversions, assignment/argument/return
   conversions and explicit casts between every pair of scalar types. */
#include <stdio.h>

char to_char(int x) { return x; }
unsigned to_unsigned(long x) { return x; }
long to_long(unsigned x) { return x; }
int to_int(double x) { return x; }
double to_double(unsigned long x) { return x; }
unsigned long to_ulong(int x) { return x; }

void show_char_arg(char c) { printf("char arg %d\n", c); }
void show_double_arg(double d) { printf("double arg %.3f\n", d); }
void show_uint_arg(unsigned u) { printf("unsigned arg %u\n", u); }

int main(void) {
    int vals[8] = {0, 1, -1, 127, 128, 255, 256, -129};
    double dv[8] = {0.0, 0.9, -0.9, 2.5, -2.5, 1e9, -1e9, 123456.789};
    char c;
    unsigned u;
    long l;
    unsigned long ul;
    int i;
    double d;

    for (int k = 0; k < 8; k++) {
        c = vals[k];
        u = vals[k];
        l = vals[k];
        ul = vals[k];
        d = vals[k];
        printf("%d -> char %d unsigned %u long %ld ulong %lu double %.1f\n",
               vals[k], c, u, l, ul, d);
    }
    for (int k = 0; k < 8; k++) {
        i = dv[k];
        l = dv[k];
        printf("%.3f -> int %d long %ld (int)cast %d\n", dv[k], i, l, (int)dv[k]);
    }
    /* integer promotions: char arithmetic happens in int */
    c = 100;
    char c2 = 100;
    i = c + c2;
    printf("char 100 + char 100 = %d\n", i);
    char c3 = c + c2;
    printf("stored back in char = %d\n", c3);
    printf("sizeof-free promotion check: %d\n", (c * c2) / 7);

    /* usual arithmetic conversions: int op unsigned -> unsigned */
    i = -1;
    u = 1;
    printf("-1 + 0u = %u\n", i + 0u);
    printf("(-1 + 0u) > 1u is %d\n", (i + 0u) > u);
    printf("-1 / 2u = %u\n", i / (u + 1));
    printf("-7 %% 3u = %u\n", -7 % (3u + 0 * u));
    /* long op unsigned -> long (value preserving on LP64) */
    l = -1;
    printf("long -1 < unsigned 1: %d\n", l < u);
    printf("long -5 + unsigned 3 = %ld\n", l * 5 + u * 3);
    /* unsigned long op long -> unsigned long */
    ul = 10;
    l = -3;
    printf("10ul + -3l = %lu\n", ul + l);
    printf("(ulong)-3 = %lu\n", (unsigned long)l);
    printf("-3l * 2ul = %lu\n", l * (ul - 8));
    /* int op long -> long */
    i = 2000000000;
    l = 2000000000;
    printf("int*long = %ld\n", i * l);
    printf("int*int wraps = %d\n", i * 2);
    printf("(long)int*int = %ld\n", (long)i * 2);
    /* int op double -> double */
    i = 7;
    printf("7/2 = %d, 7/2.0 = %.2f, (double)7/2 = %.2f\n", i / 2, i / 2.0, (double)i / 2);
    /* unsigned -> double and back */
    u = 4294967295u;
    d = u;
    printf("umax as double %.1f\n", d);
    printf("back to unsigned %u\n", (unsigned)d);
    ul = 18446744073709551615ul;
    printf("ulmax as double %.1f\n", (double)ul);
    ul = 9007199254740993ul;
    printf("2^53+1 as double %.1f\n", (double)ul);
    /* casts between integer widths */
    l = 0x123456789abcdefL;
    printf("(int)%lx = %x (unsigned)%u (char)%d\n", l, (unsigned)(int)l, (unsigned)l, (char)l);
    l = -1234567890123L;
    printf("(int)%ld = %d\n", l, (int)l);
    printf("(unsigned)%ld = %u\n", l, (unsigned)l);
    i = -5;
    printf("(unsigned long)-5 = %lu, (long)(unsigned)-5 = %ld\n", (unsigned long)i, (long)(unsigned)i);
    /* function argument and return conversions */
    printf("to_char(300) = %d\n", to_char(300));
    printf("to_unsigned(-1L) = %u\n", to_unsigned(-1L));
    printf("to_long(4000000000u) = %ld\n", to_long(4000000000u));
    printf("to_int(-3.99) = %d\n", to_int(-3.99));
    printf("to_double(ulmax) = %.0f\n", to_double(18446744073709551615ul));
    printf("to_ulong(-2) = %lu\n", to_ulong(-2));
    show_char_arg(i * 100);
    show_double_arg(7);
    show_uint_arg(-10);
    /* char comparisons and arithmetic with negative chars */
    c = -56;
    printf("char -56 as unsigned %u, as ulong %lu\n", (unsigned)c, (unsigned long)c);
    printf("char -56 >> 2 = %d\n", c >> 2);
    printf("char -56 & 0xff = %d\n", c & 0xff);
    /* conditional operator converts to common type */
    i = 3;
    printf("cond int/double: %.2f\n", i > 2 ? i : 0.5);
    printf("cond unsigned/long: %ld\n", i > 5 ? 1u : -1L);
    printf("cond unsigned wrap: %u\n", (i > 5 ? 1u : 2u) - 3);
    printf("cond long/int: %ld\n", i > 2 ? -1 : 1L);
    return 0;
}
