/* Doubles: arithmetic, compound assignment, ++/--, comparisons, conversions
   to and from every integer type (in range), negative zero, accumulated
   rounding error, Kahan summation, numerical integration and root finding. */
#include <stdio.h>
#include <math.h>

double f(double x) { return x * x * x - 2.0 * x - 5.0; }

int main(void) {
    double a = 0.1, b = 0.2;
    printf("0.1 + 0.2 = %.17g, == 0.3: %d\n", a + b, a + b == 0.3);
    printf("compare: %d %d %d %d\n", a < b, a > b, a <= 0.1, b >= 0.3);
    double s = 0.0, c = 0.0, naive = 0.0;
    for (int i = 0; i < 10000; i++) {
        naive += 0.1;
        double y = 0.1 - c;
        double t = s + y;
        c = (t - s) - y;
        s = t;
    }
    printf("naive %.15f kahan %.15f\n", naive, s);
    double d = 2.5;
    d += 1;
    d -= 0.25;
    d *= -2;
    d /= 4;
    printf("compound: %.4f\n", d);
    d++;
    ++d;
    d--;
    printf("incdec: %.4f", d);
    printf(" %.4f", d++);
    printf(" %.4f\n", --d);
    /* conversions from integers */
    int i = -7;
    unsigned u = 3000000000u;
    long l = -9000000000000L;
    unsigned long ul = 10000000000000000000ul;
    char ch = -3;
    printf("from int %.1f unsigned %.1f long %.1f ulong %.1f char %.1f\n", (double)i, (double)u, (double)l,
           (double)ul, (double)ch);
    double mixed = i + u + l * 0.5 + ch;
    printf("mixed = %.2f\n", mixed);
    /* conversions to integers truncate toward zero */
    double vals[8] = {3.99, -3.99, 0.5, -0.5, 2147483647.9, -2147483648.9, 4294967295.5, 1e18};
    for (int k = 0; k < 8; k++) {
        double v = vals[k];
        printf("%.2f -> long %ld", v, (long)v);
        if (v > -2147483649.0 && v < 2147483648.0) printf(" int %d", (int)v);
        if (v > -1.0 && v < 4294967296.0) printf(" unsigned %u", (unsigned)v);
        if (v > -129.0 && v < 128.0) printf(" char %d", (char)v);
        if (v > -1.0) printf(" ulong %lu", (unsigned long)v);
        printf("\n");
    }
    double big = 1.5e19;
    printf("1.5e19 -> ulong %lu\n", (unsigned long)big);
    /* negative zero */
    double nz = -0.0;
    printf("negative zero: %.1f %d %.1f\n", nz, nz == 0.0, 1.0 / (nz - 1.0));
    /* trapezoid integration of sin over [0, pi] */
    double pi = 4.0 * atan(1.0);
    int steps = 1000;
    double h = pi / steps, area = 0.5 * (sin(0.0) + sin(pi));
    for (int k = 1; k < steps; k++) area += sin(k * h);
    area *= h;
    printf("integral of sin over [0,pi] = %.12f\n", area);
    /* bisection and Newton for the root of x^3 - 2x - 5 */
    double lo = 2.0, hi = 3.0;
    int it = 0;
    while (hi - lo > 1e-12) {
        double mid = (lo + hi) / 2;
        if (f(lo) * f(mid) <= 0) hi = mid;
        else lo = mid;
        it++;
    }
    printf("bisection root %.12f after %d iterations\n", lo, it);
    double x = 2.0;
    for (int k = 0; k < 6; k++) {
        x -= f(x) / (3 * x * x - 2);
        printf("newton %d: %.15f\n", k, x);
    }
    /* harmonic series and exp series */
    double hsum = 0.0;
    for (int k = 1; k <= 1000; k++) hsum += 1.0 / k;
    printf("H(1000) = %.12f\n", hsum);
    double term = 1.0, e = 1.0;
    for (int k = 1; k < 20; k++) {
        term /= k;
        e += term;
    }
    printf("e = %.15f, exp(1) = %.15f\n", e, exp(1.0));
    return 0;
}
