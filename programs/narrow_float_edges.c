/* Edge cases of the narrow types and float: NaN and infinities as conditions and _Bool,
   wrapping narrow arithmetic and stores, float to unsigned long, 64-bit integers to float
   (one rounding), subnormal floats, long long. */
#include <stdio.h>
#include <math.h>
float fz = 0;
unsigned char ucs[300];
float ret_third(void) { return 1 / 3.0; }
short ret_big(void) { return 100000; }
_Bool ret_nan_bool(float x) { return x / x; }
unsigned long f2ul(float x) { return x; }
int main(void) {
    float nan = fz / fz;
    float inf = 1 / fz;
    _Bool b = nan;
    unsigned char c1 = 200, c2 = 100;
    signed char s1 = -100, s2 = -100;
    unsigned short us = 65535;
    short s = -1;
    int i;
    long long ll = 1LL << 62;
    unsigned long long ull = ~0ULL;
    printf("%d %d %d %d\n", b, nan ? 1 : 2, !nan, nan == nan);
    printf("%d %d %d\n", c1 + c2, s1 + s2, (signed char)(s1 + s2));
    printf("%d %d %u\n", us == s, (unsigned short)s == us, us * us);
    printf("%d %d\n", s < us, (unsigned)s < us);
    printf("%.9g %d %d\n", ret_third(), ret_big(), ret_nan_bool(0.0f));
    printf("%lu %lu\n", f2ul(1.8e19f), f2ul(9.3e18f));
    printf("%.1f %.1f %.1f\n", (float)ull, (float)ll, (float)(ll + 1));
    printf("%f %f %d %d\n", inf, -inf, inf > 1e38, (int)(inf != inf));
    for (i = 0; i < 300; i++) ucs[i] = i;
    for (i = 0; i < 300; i += 37) printf("%d ", ucs[i]);
    printf("\n");
    c1 = 0;
    for (i = 0; i < 1000; i++) c1 += 7;
    printf("%u\n", c1);
    s = 0;
    for (i = 0; i < 100000; i++) s -= 3;
    printf("%d\n", s);
    printf("%d %d\n", (short)-32768 / -1, (signed char)-128 % -1);
    printf("%lld %llu %llx\n", ll * 4, ull / 3, ull >> 1);
    printf("%g %g\n", (float)1e-46, (float)1.4e-45);
    return 0;
}
