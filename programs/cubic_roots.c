/* Real roots of cubic equations a x^3 + b x^2 + c x + d = 0 by Viete's trigonometric method
   (three real roots, through acos and cos) or Cardano's formula (one), computed in long double
   and checked by substituting the roots back. Exercises long double arithmetic, conversions to
   and from double, and the inverse trigonometric functions. */
#include <stdio.h>
#include <math.h>

static const long double PI = 3.14159265358979323846264338327950288L;

/* Returns the number of real roots (1 or 3) and stores them in x[]. */
static int solve_cubic(long double a, long double b, long double c, long double d, double x[3])
{
    long double a1 = b / a, a2 = c / a, a3 = d / a;
    long double q = (a1 * a1 - 3.0L * a2) / 9.0L;
    long double r = (2.0L * a1 * a1 * a1 - 9.0L * a1 * a2 + 27.0L * a3) / 54.0L;
    double r2_q3 = (double)(r * r - q * q * q);
    if (r2_q3 <= 0) {
        double theta = acos((double)r / sqrt((double)(q * q * q)));
        long double m = -2.0L * sqrt((double)q);
        x[0] = (double)(m * cos(theta / 3.0) - a1 / 3.0L);
        x[1] = (double)(m * cos((theta + 2.0 * (double)PI) / 3.0) - a1 / 3.0L);
        x[2] = (double)(m * cos((theta + 4.0 * (double)PI) / 3.0) - a1 / 3.0L);
        return 3;
    }
    long double t = pow(sqrt(r2_q3) + fabs((double)r), 1.0 / 3.0);
    long double root = t + q / t;
    x[0] = (double)((r < 0 ? root : -root) - a1 / 3.0L);
    return 1;
}

static long double residual(long double a, long double b, long double c, long double d, double x)
{
    long double v = x;
    return ((a * v + b) * v + c) * v + d;
}

int main(void)
{
    long double coeffs[][4] = {
        {1.0L, -10.5L, 32.0L, -30.0L},
        {1.0L, -4.5L, 17.0L, -30.0L},
        {1.0L, -3.5L, 22.0L, -31.0L},
        {1.0L, -13.7L, 1.0L, -35.0L},
        {3.0L, 12.34L, 5.0L, 12.0L},
        {-8.0L, -67.89L, 6.0L, -23.6L},
        {45.0L, 8.67L, 7.5L, 34.0L},
        {-12.0L, -1.7L, 5.3L, 16.0L},
    };
    double total = 0;
    for (unsigned i = 0; i < sizeof coeffs / sizeof coeffs[0]; i++) {
        long double *k = coeffs[i];
        double x[3];
        int n = solve_cubic(k[0], k[1], k[2], k[3], x);
        printf("%Lgx^3 %+Lgx^2 %+Lgx %+Lg: %d root%s", k[0], k[1], k[2], k[3], n, n > 1 ? "s" : "");
        for (int j = 0; j < n; j++) {
            long double e = residual(k[0], k[1], k[2], k[3], x[j]);
            printf(" %.12f (residual %.3Le)", x[j], e);
            total += x[j];
        }
        printf("\n");
    }
    /* Inverse trigonometry on its own: angles of a 3-4-5 triangle and their sum. */
    double A = asin(3.0 / 5.0), B = acos(3.0 / 5.0), C = acos(0.0);
    printf("angles %.15f %.15f %.15f sum/pi %.15f\n", A, B, C, (A + B + C) / (double)PI);
    printf("asinf %.9g acosf %.9g\n", (double)asinf(0.25f), (double)acosf(-0.75f));
    printf("total %.10f\n", total);
    return 0;
}
