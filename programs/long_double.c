/* long double as gcc has it on x86-64: x87 80-bit extended precision in 16 bytes. */
#include <stdio.h>
#include <stdarg.h>
#include <float.h>

struct point {
    char tag;
    long double x, y;
};

static long double third = 1.0L / 3;
long double table[4] = {0.5L, -1.25L, 1e-4000L, 12345678901234567890.0L};
struct point origin = {'o', 0.0L, -0.0L};

static long double square(long double v) { return v * v; }

static long double horner(const long double *c, int n, long double x)
{
    long double r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

static double mixed(long double a, double b, int c) { return a * b + c; }

static long double sum(int n, ...)
{
    va_list ap;
    long double s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long double);
    va_end(ap);
    return s;
}

static void show(const char *label, long double v)
{
    printf("%-8s %.21Lg %La %Le\n", label, v, v, v);
}

int main(void)
{
    long double a = 0.1L, b = 0.1;
    show("a", a);
    show("b", b);
    printf("a==b %d a>b %d a<b %d\n", a == b, a > b, a < b);
    show("third", third);
    show("sq", square(third));
    for (int i = 0; i < 4; i++)
        show("table", table[i]);
    long double c[3] = {1, 2, 3};
    show("horner", horner(c, 3, 0.5L));
    printf("mixed %.17g\n", mixed(third, 3.0, 1));
    show("sum", sum(3, 1.0L, 2.5L, third));

    /* increments, compound assignments, conversions both ways */
    long double x = 1e18L;
    x++;
    ++x;
    x -= 0.5;
    x *= 2;
    x /= 3;
    show("x", x);
    long long big = (long long)x;
    unsigned long long ubig = (unsigned long long)(x * 10);
    printf("big %lld ubig %llu int %d\n", big, ubig, (int)(x / 1e10L));
    double d = x;
    float f = x;
    printf("d %.17g f %.9g\n", d, (double)f);
    d += third;
    printf("d+= %.17g\n", d);
    int k = 7;
    k *= 1.5L;
    printf("k %d\n", k);

    /* structures, pointers, arrays */
    struct point p = {'p', 3, 4};
    struct point *pp = &p;
    pp->x += pp->y;
    show("p.x", p.x);
    printf("sizeof %zu %zu align %zu\n", sizeof(long double), sizeof(struct point),
           _Alignof(long double));
    long double *q = &table[1];
    q[1] = -q[0];
    show("table2", table[2]);
    show("origin.y", origin.y);
    printf("signbit %d\n", 1 / origin.y < 0);

    /* conditions, limits, special values */
    long double zero = 0;
    if (!zero && a)
        printf("conditions ok\n");
    long double inf = 1 / zero, nan = zero / zero;
    printf("%Lf %Lf %Lf %d %d\n", inf, -inf, nan, nan == nan, nan != nan);
    printf("max %Lg min %Lg eps %Lg dig %d\n", LDBL_MAX, LDBL_MIN, LDBL_EPSILON, LDBL_DIG);
    long double t = a ? third : 2;
    show("t", t);
    long double acc = 1;
    for (int i = 1; i <= 25; i++)
        acc *= i;
    printf("25! %.0Lf %Lf\n", acc, acc);
    printf("%10.3Lf|%-12.4Le|%+Lg|%#Lg|%015.2Lf\n", a, a, a, a, -a);
    return (int)(third * 30);
}
