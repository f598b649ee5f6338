/* Tallam, Zhang & Gupta 2004, Figure 2, as C: f() reaches its call of g() along three paths
 * (a > 0, b > 0: P1, P2), g() has five paths (P1, P2, P3), and f() goes on after the call
 * along two (P3). The inputs correlate the paths: when f() takes `t = a` (a multiple of 4),
 * g() returns at once, so the paths across the call are far fewer than 3 x 5 and 5 x 2.
 * `vmrun --profile=ol:1 --report` bounds them (docs/overlap.md, "Paths across calls"). */
#include <stdio.h>

int g(int x) {
    int r = x;
    if (x % 4 != 0) {     /* P1 */
        if (x % 3 == 0)   /* P2 */
            r += 3;       /* B1 */
        if (x % 5 == 0)   /* P3 */
            r *= 2;       /* B2 */
    }
    return r + 1;         /* B3 */
}

int f(int a, int b) {
    int t = b;
    if (a > 0)            /* P1 */
        if (b > 0)        /* P2 */
            t = a;        /* B1 */
    int r = g(t);         /* C1 */
    if (r & 1)            /* P3 */
        r = r * 3;        /* B4 */
    else
        r = r / 2;        /* B5 */
    return r;             /* B6 */
}

int main(void) {
    long sum = 0;
    for (int i = 0; i < 30000; i++) {
        int a = i % 3 == 0 ? 4 * (i % 100) + 4 : -i;
        int b = i % 7;
        sum += f(a, b);
    }
    printf("%ld\n", sum);
    return 0;
}
