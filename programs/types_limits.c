/* Ranges and wrap-around of every scalar type: char, int, unsigned, long,
   unsigned long, double. Signed overflow wraps (gcc -fwrapv). */
#include <stdio.h>

int imax = 2147483647;
int imin = -2147483647 - 1;
long lmax = 9223372036854775807L;
unsigned umax = 4294967295u;
unsigned long ulmax = 18446744073709551615ul;

int main(void) {
    int i = imax;
    long l = lmax;
    unsigned u = umax;
    unsigned long ul = ulmax;
    char c = 127;
    double d = 1.0;

    printf("int max %d min %d\n", imax, imin);
    i = i + 1;
    printf("int max+1 = %d\n", i);
    i = imin;
    i = i - 1;
    printf("int min-1 = %d\n", i);
    i = imax;
    i = i * 2;
    printf("int max*2 = %d\n", i);
    i = imin;
    i = -i;
    printf("-int min = %d\n", i);

    printf("long max %ld\n", l);
    l = l + 1;
    printf("long max+1 = %ld\n", l);
    l = l - 1;
    printf("long back = %ld\n", l);
    l = 3037000500L;
    l = l * l;
    printf("long square wrap = %ld\n", l);

    printf("unsigned max %u\n", u);
    u = u + 1;
    printf("unsigned max+1 = %u\n", u);
    u = u - 1;
    printf("unsigned 0-1 = %u\n", u);
    u = 65536u;
    u = u * u;
    printf("65536u*65536u = %u\n", u);
    u = 3;
    u = u - 5;
    printf("3u-5 = %u\n", u);

    printf("unsigned long max %lu\n", ul);
    ul = ul + 1;
    printf("unsigned long max+1 = %lu\n", ul);
    ul = ul - 2;
    printf("unsigned long 0-2 = %lu\n", ul);

    printf("char 127 = %d\n", c);
    c = c + 1;
    printf("char 127+1 = %d\n", c);
    c++;
    printf("char ++ = %d\n", c);
    c = -128;
    c--;
    printf("char -128-- = %d\n", c);
    for (int k = 0; k < 300; k += 37) {
        char t = k;
        printf("char(%d) = %d\n", k, t);
    }

    for (int k = 0; k < 8; k++) {
        printf("d = %.17g\n", d);
        d = d / 3.0 + 0.5;
    }
    d = 1.0;
    for (int k = 0; k < 60; k++) d = d * 2.0;
    printf("2^60 = %.1f\n", d);
    printf("2^60 as long = %ld\n", (long)d);
    printf("2^60 as unsigned long = %lu\n", (unsigned long)d);
    d = d * 8.0;
    printf("2^63 as unsigned long = %lu\n", (unsigned long)d);
    return 0;
}
