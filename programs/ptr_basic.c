/* Pointers to every scalar type: & and *, reads and writes through pointers, out-parameters, pointer swaps, _Bool and const. */
#include <stdio.h>
#include <stdbool.h>

static void set_all(char *c, signed char *sc, unsigned char *uc, short *s, unsigned short *us,
                    int *i, unsigned *u, long *l, unsigned long *ul, long long *ll,
                    unsigned long long *ull, float *f, double *d, _Bool *b) {
    *c = 'Z';
    *sc = -100;
    *uc = 250;
    *s = -30000;
    *us = 65000;
    *i = -2000000000;
    *u = 4000000000u;
    *l = -9000000000000000000L;
    *ul = 18000000000000000000UL;
    *ll = -123456789012345LL;
    *ull = 987654321098765ULL;
    *f = 1.5f;
    *d = -2.25;
    *b = 1;
}

static void swap_int(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

static void swap_double(double *a, double *b) {
    double t = *a;
    *a = *b;
    *b = t;
}

static void divmod(int a, int b, int *q, int *r) {
    *q = a / b;
    *r = a % b;
}

static int sum_through(const int *p, const int *q) { return *p + *q; }

int main(void) {
    char c = 0;
    signed char sc = 0;
    unsigned char uc = 0;
    short s = 0;
    unsigned short us = 0;
    int i = 0;
    unsigned u = 0;
    long l = 0;
    unsigned long ul = 0;
    long long ll = 0;
    unsigned long long ull = 0;
    float f = 0;
    double d = 0;
    _Bool b = 0;
    bool flag = false;

    set_all(&c, &sc, &uc, &s, &us, &i, &u, &l, &ul, &ll, &ull, &f, &d, &b);
    printf("c=%c sc=%d uc=%d s=%d us=%d\n", c, sc, uc, s, us);
    printf("i=%d u=%u l=%ld ul=%lu\n", i, u, l, ul);
    printf("ll=%lld ull=%llu f=%.2f d=%.2f b=%d\n", ll, ull, f, d, b);

    /* increments through pointers wrap like the pointee type */
    unsigned char *puc = &uc;
    for (int k = 0; k < 10; k++) (*puc)++;
    unsigned short *pus = &us;
    *pus += 1000;
    signed char *psc = &sc;
    *psc -= 28;
    printf("uc=%d us=%d sc=%d\n", uc, us, sc);

    float *pf = &f;
    *pf *= 3.0f;
    double *pd = &d;
    *pd = *pd * *pd;
    printf("f=%.3f d=%.4f\n", f, d);

    bool *pb = &flag;
    *pb = (bool)42;
    _Bool *pb2 = &b;
    *pb2 = 0;
    printf("flag=%d b=%d sizeof(bool)=%zu\n", flag, b, sizeof *pb);

    int x = 3, y = 9;
    int *px = &x, *py = &y;
    swap_int(px, py);
    printf("x=%d y=%d *px=%d *py=%d\n", x, y, *px, *py);
    int *tmp = px;
    px = py;
    py = tmp;
    *px += 100;
    printf("x=%d y=%d same=%d\n", x, y, px == &y);

    double d1 = 1.25, d2 = -7.5;
    swap_double(&d1, &d2);
    printf("d1=%.2f d2=%.2f\n", d1, d2);

    int q, r;
    divmod(-17, 5, &q, &r);
    printf("divmod(-17,5)=%d,%d\n", q, r);
    divmod(17, -5, &q, &r);
    printf("divmod(17,-5)=%d,%d\n", q, r);

    printf("sum_through=%d\n", sum_through(&x, &y));
    printf("*&x=%d &*px==px:%d\n", *&x, &*px == px);

    long *pl = &l;
    long long *pll = &ll;
    *pl /= 1000000000000L;
    *pll = -*pll;
    printf("l=%ld ll=%lld\n", l, ll);

    const int ci = 77;
    const int *pci = &ci;
    printf("ci=%d sizes %zu %zu %zu %zu %zu\n", *pci, sizeof(char *), sizeof(short *), sizeof(double *),
           sizeof *pll, sizeof *pf);
    return (x + y) % 9;
}
