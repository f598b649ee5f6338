/* Old-style (K&R) definitions and an implicit int result, still accepted by gcc -std=c99. */
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
main()
{
    long v[3] = {1, 2, 3};
    printf("%d %f %ld %d\n", add(2, 3), scale(1.5, 4), sum(v, 3), later(20, 22));
}
int later(x, y) int x, y; { return x + y; }
