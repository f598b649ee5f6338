/* Logical operators && || ! with side effects (short-circuit evaluation),
   the comma operator, nested ?: and relational operators on all types. */
#include <stdio.h>

int calls = 0;

int trace(int id, int value) {
    calls++;
    printf("[%d:%d]", id, value);
    return value;
}

double dtrace(int id, double value) {
    calls++;
    printf("[%d:%.1f]", id, value);
    return value;
}

int sign(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

int main(void) {
    int r;
    r = trace(1, 0) && trace(2, 1);
    printf(" -> %d\n", r);
    r = trace(1, 3) && trace(2, 0) && trace(3, 1);
    printf(" -> %d\n", r);
    r = trace(1, 0) || trace(2, 0) || trace(3, 5);
    printf(" -> %d\n", r);
    r = trace(1, 7) || trace(2, 1);
    printf(" -> %d\n", r);
    r = (trace(1, 1) && trace(2, 0)) || (trace(3, 1) && trace(4, 2));
    printf(" -> %d\n", r);
    r = !trace(1, 9) || !trace(2, 0);
    printf(" -> %d\n", r);
    r = dtrace(1, 0.0) || dtrace(2, 0.5);
    printf(" -> %d\n", r);
    r = dtrace(1, -0.0) && dtrace(2, 0.5);
    printf(" -> %d\n", r);
    printf("calls = %d\n", calls);

    /* ! on every type */
    int i = 0;
    unsigned u = 4;
    long l = -3;
    unsigned long ul = 0;
    char c = 0;
    double d = 0.25;
    printf("not: %d %d %d %d %d %d %d\n", !i, !u, !l, !ul, !c, !d, !!l);
    /* logical values are int 0/1 */
    printf("values: %d %d %d\n", (5 && 3) + (0 || 2), (l && d) * 10, (c || ul) - 1);

    /* the ternary operator only evaluates one arm */
    int a = 0, b = 0;
    r = trace(5, 1) ? (a = 10) : (b = 20);
    printf(" -> %d a=%d b=%d\n", r, a, b);
    r = trace(5, 0) ? (a = 11) : (b = 21);
    printf(" -> %d a=%d b=%d\n", r, a, b);
    for (int k = -2; k <= 2; k++) printf("sign(%d)=%d ", k, sign(k));
    printf("\n");
    /* nested conditional chains, right associative */
    for (int k = 0; k < 6; k++) {
        const int cls = k < 2 ? 0 : k < 4 ? k == 2 ? 20 : 30 : 99;
        printf("cls(%d)=%d ", k, cls);
    }
    printf("\n");
    /* the comma operator evaluates left to right and yields the right value */
    int x = (a = 3, b = a * 2, a + b);
    printf("comma: x=%d a=%d b=%d\n", x, a, b);
    int s = 0;
    for (int p = 0, q = 10; p < q; p++, q--) s += q - p;
    printf("comma in for: %d\n", s);
    double cd = (x++, 2.5);
    printf("comma double: %.1f x=%d\n", cd, x);

    /* relational and equality on each type, mixed */
    printf("rel int: %d %d %d %d %d %d\n", 3 < 4, 3 > 4, 3 <= 3, 4 >= 5, 3 == 3, 3 != 3);
    printf("rel unsigned: %d %d\n", u > 3u, 0u < u);
    printf("rel long: %d %d\n", l < -2, l >= -3L);
    printf("rel ulong: %d %d\n", ul == 0ul, ul + 1 > ul);
    printf("rel char: %d %d\n", c < 'a', 'z' > 'a');
    printf("rel double: %d %d %d\n", d < 0.5, d == 0.25, d != 0.25);
    printf("rel mixed int/double: %d %d\n", 1 < 1.5, 2 == 2.0);
    printf("rel mixed long/unsigned: %d\n", l < u);
    printf("rel via unsigned arithmetic: %d\n", (l + 0ul) > u);
    /* comparisons yield int that can be summed */
    int cnt = 0;
    for (int k = 0; k < 20; k++) cnt += (k % 3 == 0) + (k % 5 == 0) * 2 + (k > 15);
    printf("cnt = %d\n", cnt);
    /* short circuit guards a division */
    int zero = 0;
    if (zero != 0 && 10 / zero > 1) printf("unreachable\n");
    else printf("guarded division skipped\n");
    if (zero == 0 || 10 / zero > 1) printf("guarded again\n");
    return 0;
}
