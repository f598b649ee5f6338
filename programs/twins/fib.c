/* Twin benchmark: naive recursive Fibonacci. */
#include <stdio.h>

int fib(int n) {
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

int main(void) {
    for (int n = 25; n <= 35; n += 5) printf("fib(%d) = %d\n", n, fib(n));
    return 0;
}
