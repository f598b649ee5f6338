/* Recursion: factorial, Fibonacci, Ackermann, mutual recursion through
   prototypes, Towers of Hanoi, recursive array algorithms, permutations. */
#include <stdio.h>

int is_even(int n);
int is_odd(int n);
long fact(int n);
void hanoi(int n, int from, int to, int via);

int moves = 0;
int perm[6];
int used[6];
int perm_count = 0;

int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

long fact(int n) {
    if (n <= 1) return 1;
    return n * fact(n - 1);
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

void hanoi(int n, int from, int to, int via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    moves++;
    if (n >= 4) printf("move disk %d from %d to %d\n", n, from, to);
    hanoi(n - 1, via, to, from);
}

int sum_array(int a[], int lo, int hi) {
    if (lo > hi) return 0;
    if (lo == hi) return a[lo];
    int mid = (lo + hi) / 2;
    return sum_array(a, lo, mid) + sum_array(a, mid + 1, hi);
}

int max_array(int a[], int n) {
    if (n == 1) return a[0];
    int m = max_array(a, n - 1);
    return a[n - 1] > m ? a[n - 1] : m;
}

void permute(int depth, int n) {
    if (depth == n) {
        perm_count++;
        if (perm_count % 37 == 1) {
            for (int i = 0; i < n; i++) printf("%d", perm[i]);
            printf("\n");
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        if (used[i]) continue;
        used[i] = 1;
        perm[depth] = i;
        permute(depth + 1, n);
        used[i] = 0;
    }
}

double power(double base, int e) {
    if (e == 0) return 1.0;
    if (e < 0) return 1.0 / power(base, -e);
    double half = power(base, e / 2);
    return e % 2 ? half * half * base : half * half;
}

unsigned long binom(int n, int k) {
    if (k == 0 || k == n) return 1;
    return binom(n - 1, k - 1) + binom(n - 1, k);
}

int depth_sum(int n) { return n == 0 ? 0 : n + depth_sum(n - 1); }

int main(void) {
    for (int i = 0; i < 10; i++) printf("even(%d)=%d odd(%d)=%d\n", i, is_even(i), i, is_odd(i));
    printf("even(501)=%d\n", is_even(501));
    for (int i = 0; i <= 20; i += 4) printf("fact(%d) = %ld\n", i, fact(i));
    printf("fact(25) wraps = %ld\n", fact(25));
    for (int i = 0; i <= 20; i += 5) printf("fib(%d) = %d\n", i, fib(i));
    for (int m = 0; m <= 2; m++)
        for (int n = 0; n <= 3; n++) printf("ack(%d,%d) = %d\n", m, n, ack(m, n));
    printf("ack(3,3) = %d\n", ack(3, 3));
    hanoi(6, 1, 3, 2);
    printf("hanoi moves = %d\n", moves);
    int a[13] = {5, -3, 8, 1, 9, 2, -7, 4, 6, 0, 11, -2, 3};
    printf("sum = %d, max = %d\n", sum_array(a, 0, 12), max_array(a, 13));
    permute(0, 5);
    printf("permutations = %d\n", perm_count);
    printf("power(1.5, 10) = %.6f, power(2, -3) = %.6f\n", power(1.5, 10), power(2, -3));
    printf("binom(20, 10) = %lu\n", binom(20, 10));
    printf("depth_sum(900) = %d\n", depth_sum(900));
    return 0;
}
