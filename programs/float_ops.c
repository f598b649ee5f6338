/* float: binary32 arithmetic (gcc on x86-64 computes float with float in float), mixed
   arithmetic with integers (float) and double (double), conversions both ways with a single
   rounding, f-suffixed constants, constant folding in initializers, arrays, and printf's
   default promotion of float to double. */
#include <stdio.h>

float gf = 1.1f * 3;
float gsum = 0.1f + 0.2f;
float gdiv = 1.0f / 3.0f;
float gfrom_double = 0.1;
float gfrom_int = 16777217;
float gfrom_long = 9007199254740993L;
float gfrom_ulong = 18446744073709551615UL;
float gbig = 1e39;
float garr[4] = {0.5f, 1.0f / 3, 2.5, -7};
double gd = 1.1f;
int gi = 2.75f;
unsigned char guc = 300.5f - 100;
_Bool gb = 0.5f;
float gneg = -0.0f;

float half(float x) { return x / 2; }
float avg(float a[], int n) {
    float s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[i];
    return s / n;
}
double widen(float x) { return x; }
float narrow(double x) { return x; }
float from_int(int x) { return x; }
long to_long(float x) { return x; }

int main(void) {
    float a = 0.1f;
    float b = 0.2f;
    float c;
    double d;
    float arr[10];
    float m[2][3];
    int i;
    long l;
    unsigned long ul;
    unsigned u;
    short s;
    float x, y;

    printf("globals %.9g %.9g %.9g %.9g %.9g\n", gf, gsum, gdiv, gfrom_double, gfrom_int);
    printf("globals2 %.9g %.9g %g %.9g %.9g %.9g %.9g\n", gfrom_long, gfrom_ulong, gbig,
           garr[0], garr[1], garr[2], garr[3]);
    printf("globals3 %.17g %d %u %d %g\n", gd, gi, guc, gb, gneg);

    /* float arithmetic stays in float */
    c = a + b;
    printf("add %.9g %.17g %d\n", c, a + b, a + b == 0.3f);
    printf("ops %.9g %.9g %.9g %.9g\n", a - b, a * b, a / b, -a);
    printf("cmp %d %d %d %d\n", a < b, a + b > 0.3, a + b > 0.3f, (double)a == 0.1);
    x = 16777216.0f;
    printf("ulp %.1f %.1f %.1f\n", x + 1, x + 1.0, x + 2);
    y = 1e-45f;
    printf("denorm %g %g %g\n", y, y / 2, y * 1e38f * 1e10f);
    x = 3.4e38f;
    printf("overflow %g %g %g\n", x * 10, -x * 10, x * 10 - x * 10);
    x = 1.0f;
    for (i = 0; i < 30; i++) x = x * 1.1f + 0.01f;
    printf("loop %.9g\n", x);
    x = 0;
    for (i = 0; i < 1000; i++) x += 0.1f;
    printf("sum %.9g\n", x);

    /* with double: double */
    d = a * 0.1;
    printf("mixed %.17g %.17g %.17g\n", d, a + 0.1, a * 3.0);
    /* with integers: float */
    i = 16777217;
    printf("intmix %.1f %.1f %.9g\n", a * 0 + i, i + 0.0, 1 / 3.0f + 1);
    l = 9007199254740993L;
    printf("longmix %.1f %.1f\n", l * 1.0f, (float)l);
    ul = 18446744073709551615UL;
    printf("ulong %.1f %.1f %.1f\n", (float)ul, (float)(ul >> 1), (float)(ul - 1099511627775UL));
    l = 1152921573326323713L; /* 2^60 + 2^36 + 1: single rounding matters */
    printf("round once %.1f %.1f\n", (float)l, (float)(double)l);

    /* compound assignment: computed in the common type, rounded back to float */
    x = 1.0f;
    x += 0.1;
    printf("compound %.9g", x);
    x *= 3;
    printf(" %.9g", x);
    x /= 0.7f;
    printf(" %.9g", x);
    x -= 1e-8;
    printf(" %.9g", x);
    i = 10;
    i += 0.7f;
    printf(" %d", i);
    i *= 1.5f;
    printf(" %d\n", i);
    x = 0.5f;
    x++;
    ++x;
    printf("incdec %g %g %g %g\n", x, x--, --x, x);
    x = 16777216.0f;
    x++;
    printf("inc big %.1f\n", x);

    /* conversions */
    x = -7.9f;
    printf("toint %d %ld %u %d %d %u %d\n", (int)x, (long)x, (unsigned)-x, (short)x,
           (signed char)x, (unsigned char)-x, (_Bool)x);
    x = 3e9f;
    printf("tounsigned %u %lu %ld\n", (unsigned)x, (unsigned long)x, to_long(x));
    x = 1e19f;
    printf("toulong %lu\n", (unsigned long)x);
    d = 0.1;
    printf("narrow %.17g %.17g %.9g\n", (double)(float)d, widen(narrow(d)), narrow(1e300));
    d = 1.00000005960464477539;
    printf("tie %.9g %.9g\n", (float)d, (float)1.0000000596046448);
    u = 4294967295u;
    printf("fromuint %.1f %.1f\n", (float)u, from_int(2147483647));
    s = -32768;
    printf("fromshort %g %g\n", (float)s, s * 0.5f);
    printf("bool %d %d %d\n", (_Bool)0.0f, (_Bool)-0.0f, (_Bool)1e-40f);

    /* arrays */
    for (i = 0; i < 10; i++) arr[i] = i / 3.0f;
    printf("arr %.9g %.9g avg %.9g half %g\n", arr[1], arr[9], avg(arr, 10), half(arr[5]));
    for (i = 0; i < 6; i++) m[i / 3][i % 3] = i * 0.1;
    printf("m %.9g %.9g\n", m[0][1], m[1][2]);
    m[1][1] += 1;
    m[0][0]--;
    printf("m2 %.9g %.9g\n", m[1][1], m[0][0]);

    /* NaN and infinities */
    x = 0.0f;
    y = x / x;
    printf("nan %d %d %d %d\n", y == y, y != y, y < 1, !(y >= 1));
    printf("inf %f %f %d\n", 1 / x, -1 / x, 1 / x > 3.4e38f);
    if (y) printf("nan is true\n");
    if (!x) printf("zero is false\n");

    /* printf conversions of floats (promoted to double) */
    x = 1234.5678f;
    printf("%f %e %g %.3f %10.2f %-10.1e| %G %E\n", x, x, x, x, x, x, x, x);
    printf("%.0f %.10f %5.1g\n", 2.5f, 0.1f, 123456.0f);
    return 0;
}
