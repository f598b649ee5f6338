#include <stdio.h>

/* Recursion inside a loop with two entries: the recursive call is in the loop's first half,
   and an odd n enters the loop at its second half. */

int walk(int depth, int n) {
    int i = 0, acc = depth;
    if (depth <= 0)
        return 1;
    if (n & 1)
        goto second;
    while (i < n) {
        acc += walk(depth - 1, n - 1 - i % 2);
        i++;
    second:
        acc += i;
        i++;
    }
    return acc % 100000;
}

/* Mutual recursion through a loop entered in its middle. */
int zig(int n);

int zag(int n) {
    int k = n, s = 0;
    if (n % 3 == 0)
        goto middle;
    for (; k > 0; k -= 2) {
        s += zig(k / 2);
    middle:
        s += k;
    }
    return s;
}

int zig(int n) {
    if (n <= 1)
        return n;
    return zag(n - 1) + 1;
}

int main(void) {
    long acc = 0;
    for (int k = 0; k < 40; k++) {
        acc += walk(k % 4, k % 7);
        acc += zag(k % 12);
    }
    printf("%ld\n", acc);
    printf("%d %d %d\n", walk(3, 6), walk(3, 5), zag(20));
    return 0;
}
