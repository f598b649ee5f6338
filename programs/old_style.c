/* Old-style (K&R) definitions and implicit int (a result, `register i;`, `static x;`), still
   accepted by gcc -std=c99 (with warnings). */
#include <stdio.h>
int later();                 /* parameters unspecified: the definition below gives them */
int add(a, b)
int a;
int b;
{
    return a + b;
}
double scale(x, n)
double x;
{
    return x * n;
}
long sum(v, n) long v[]; int n; { long s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
static counter = 40;
extern total;
int total = 2;

main()
{
    register i;
    static calls;
    const limit = 3;
    long v[3] = {1, 2, 3};
    for (i = 0; i < limit; i++)
        calls += i;
    printf("%d %d %d %d\n", i, calls, counter + total, limit);
    printf("%d %f %ld %d\n", add(2, 3), scale(1.5, 4), sum(v, 3), later(20, 22));
}
int later(x, y) int x, y; { return x + y; }
