/* Pointer arithmetic: p+n, p-n, ++/--, subtraction, relational comparison, one-past-end, i[p], decay of arrays of several element types. */
#include <stdio.h>

static int sum_range(const int *begin, const int *end) {
    int s = 0;
    while (begin != end) s += *begin++;
    return s;
}

static long count_until(const char *s, char stop) {
    const char *p = s;
    while (*p != '\0' && *p != stop) p++;
    return (long)(p - s);
}

static void reverse_doubles(double *a, int n) {
    double *lo = a, *hi = a + n - 1;
    while (lo < hi) {
        double t = *lo;
        *lo++ = *hi;
        *hi-- = t;
    }
}

static const short *find_short(const short *a, int n, short v) {
    for (const short *p = a; p < a + n; ++p)
        if (*p == v) return p;
    return NULL;
}

int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i * i;
    int *p = a;               /* decay */
    int *end = a + 10;        /* one past the end: may be formed and compared */
    printf("sum all=%d first half=%d\n", sum_range(p, end), sum_range(a, a + 5));
    printf("*(p+3)=%d p[4]=%d 5[a]=%d *(end-1)=%d\n", *(p + 3), p[4], 5[a], *(end - 1));
    int *p2 = a + 0;
    printf("end-p=%ld p<end=%d end>p=%d p<=p2=%d p>=end=%d\n", (long)(end - p), p < end, end > p, p <= p2,
           p >= end);

    int *q = &a[7];
    printf("q-p=%ld p-q=%ld q[-2]=%d\n", (long)(q - p), (long)(p - q), q[-2]);
    int pre = *--q;
    printf("*--q=%d now at a[%ld]\n", pre, (long)(q - a));
    q = &a[7];
    int before = *q++;
    int after = *q;
    printf("post-inc read %d then %d, q-a=%ld\n", before, after, (long)(q - a));
    q -= 3;
    q += 1;
    printf("q now a[%ld]=%d\n", (long)(q - a), *q);

    /* element size scaling differs by type */
    char cs[8] = "abcdefg";
    short ss[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    long ls[4] = {100000000000L, 2, 3, 4};
    double ds[5] = {0.5, 1.5, 2.5, 3.5, 4.5};
    char *pc = cs + 2;
    short *ps = ss + 2;
    long *pl = ls + 2;
    double *pd = ds + 2;
    printf("bytes moved: %ld %ld %ld %ld\n", (long)((char *)pc - (char *)cs), (long)((char *)ps - (char *)ss),
           (long)((char *)pl - (char *)ls), (long)((char *)pd - (char *)ds));
    printf("%c %d %ld %.1f\n", *pc, *ps, *(pl - 2), pd[2]);

    printf("count_until=%ld %ld %ld\n", count_until("hello, world", ','), count_until("abc", 'z'),
           count_until("", 'x'));

    reverse_doubles(ds, 5);
    for (const double *it = ds; it != ds + 5; it++) printf("%.1f%c", *it, it + 1 == ds + 5 ? '\n' : ' ');

    const short *hit = find_short(ss, 8, 60);
    const short *miss = find_short(ss, 8, 65);
    printf("found 60 at %ld, miss is null=%d\n", hit ? (long)(hit - ss) : -1L, miss == NULL);

    /* walking backwards from one past the end */
    int back = 0;
    for (int *r = end; r > a;) back = back * 3 + *--r % 5;
    printf("back=%d\n", back);

    /* pointer into a 2-D array treated row by row */
    int grid[3][4];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) grid[i][j] = i * 10 + j;
    int *g = &grid[1][0];
    printf("grid row1 via ptr: %d %d %d %d, bytes grid[2]-grid[0]=%ld\n", g[0], g[1], g[2], g[3],
           (long)((char *)grid[2] - (char *)grid[0]));

    /* comparisons of pointers to members of the same struct */
    struct { int x; int y; double z; } st = {1, 2, 3.0};
    printf("&st.x<&st.y=%d (char*)&st.z-(char*)&st=%ld\n", &st.x < &st.y, (long)((char *)&st.z - (char *)&st));

    int status = (int)(end - a) - (int)(q - a) - 4; /* 0 */
    return status;
}
