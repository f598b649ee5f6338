/* Prefix and postfix ++ and -- on every scalar type (including double and
   char wrap-around), on array elements and globals, inside expressions. */
#include <stdio.h>

int counter = 0;
double dcounter = 0.5;
unsigned uarr[3] = {0, 4294967295u, 7};

int main(void) {
    int i = 5;
    unsigned u = 0;
    long l = -1;
    unsigned long ul = 0;
    char c = 126;
    double d = 1.25;

    printf("int: %d ", i++);
    printf("%d ", i);
    printf("%d ", ++i);
    printf("%d ", i--);
    printf("%d\n", --i);
    printf("unsigned: %u ", u--);
    printf("%u ", u);
    printf("%u\n", ++u);
    printf("long: %ld ", l++);
    printf("%ld ", ++l);
    printf("%ld\n", --l);
    printf("ulong: %lu ", ul--);
    printf("%lu ", ul);
    printf("%lu\n", ++ul);
    printf("char: %d ", c++);
    printf("%d ", c++);
    printf("%d ", c);
    printf("%d ", --c);
    printf("%d\n", c--);
    printf("double: %.2f ", d++);
    printf("%.2f ", d);
    printf("%.2f ", ++d);
    printf("%.2f ", d--);
    printf("%.2f\n", --d);
    d = 0.1;
    for (int k = 0; k < 5; k++) d++;
    printf("0.1 + 5 = %.17g\n", d);

    printf("global: %d ", counter++);
    printf("%d ", ++counter);
    printf("%d\n", counter);
    printf("global double: %.2f ", dcounter--);
    printf("%.2f\n", --dcounter);
    printf("global array: %u ", uarr[0]--);
    printf("%u ", ++uarr[1]);
    printf("%u ", uarr[2]++);
    printf("%u %u %u\n", uarr[0], uarr[1], uarr[2]);

    int a[5] = {10, 20, 30, 40, 50};
    int j = 0;
    a[j++] += 1;
    a[++j] *= 2;
    printf("array: %d %d %d %d %d j=%d\n", a[0], a[1], a[2], a[3], a[4], j);
    int x = a[j++]--;
    printf("x=%d a[2]=%d j=%d\n", x, a[2], j);
    char carr[2] = {127, -128};
    carr[0]++;
    carr[1]--;
    printf("char array: %d %d\n", carr[0], carr[1]);
    double darr[2][2] = {{0.5, 1.5}, {2.5, 3.5}};
    darr[1][0]++;
    --darr[0][1];
    printf("double matrix: %.1f %.1f %.1f %.1f\n", darr[0][0], darr[0][1], darr[1][0], darr[1][1]);

    /* loops counting down with postfix in the condition */
    int n = 5, total = 0;
    while (n--) total += n;
    printf("while n--: total=%d n=%d\n", total, n);
    n = 0;
    do total -= n; while (++n < 4);
    printf("do ++n: total=%d n=%d\n", total, n);
    unsigned un = 3;
    while (un-- > 0) printf("un=%u ", un);
    printf("after: %u\n", un);
    return 0;
}
