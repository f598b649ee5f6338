/* Arbitrary precision arithmetic in int arrays (base 10000 limbs):
   100!, 2^1000 and its digit sum, Fibonacci(500), and a long division. */
#include <stdio.h>

int num[700];
int len;

void set_small(int v) {
    len = 1;
    num[0] = v;
}

void mul_small(int m) {
    int carry = 0;
    for (int i = 0; i < len; i++) {
        int t = num[i] * m + carry;
        num[i] = t % 10000;
        carry = t / 10000;
    }
    while (carry > 0) {
        num[len++] = carry % 10000;
        carry /= 10000;
    }
}

void print_num(int a[], int n) {
    printf("%d", a[n - 1]);
    for (int i = n - 2; i >= 0; i--) printf("%04d", a[i]);
    printf("\n");
}

int digit_sum(int a[], int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        for (int v = a[i]; v > 0; v /= 10) s += v % 10;
    return s;
}

int add_into(int a[], int na, int b[], int nb, int out[]) {
    int n = na > nb ? na : nb, carry = 0;
    for (int i = 0; i < n; i++) {
        int t = carry + (i < na ? a[i] : 0) + (i < nb ? b[i] : 0);
        out[i] = t % 10000;
        carry = t / 10000;
    }
    if (carry) out[n++] = carry;
    return n;
}

/* divides num by d in place, returns the remainder */
int div_small(int d) {
    int rem = 0;
    for (int i = len - 1; i >= 0; i--) {
        int cur = rem * 10000 + num[i];
        num[i] = cur / d;
        rem = cur % d;
    }
    while (len > 1 && num[len - 1] == 0) len--;
    return rem;
}

int fa[40], fb[40], fc[40];

int main(void) {
    set_small(1);
    for (int i = 2; i <= 100; i++) mul_small(i);
    printf("100! = ");
    print_num(num, len);
    printf("digits sum = %d, limbs = %d\n", digit_sum(num, len), len);
    int zeros = 0;
    for (int i = 0; i < len && num[i] == 0; i++) zeros += 4;
    printf("trailing zero limbs -> at least %d zeros\n", zeros);
    int r = div_small(97);
    printf("100! mod 97 = %d\n", r);

    set_small(1);
    for (int i = 0; i < 1000; i++) mul_small(2);
    printf("2^1000 has %d limbs, digit sum %d\n", len, digit_sum(num, len));
    printf("2^1000 = ");
    print_num(num, len);

    int na = 1, nb = 1, nc = 0;
    fa[0] = 0;
    fb[0] = 1;
    for (int i = 2; i <= 500; i++) {
        nc = add_into(fa, na, fb, nb, fc);
        for (int k = 0; k < nb; k++) fa[k] = fb[k];
        na = nb;
        for (int k = 0; k < nc; k++) fb[k] = fc[k];
        nb = nc;
        if (i % 100 == 0) {
            printf("fib(%d) = ", i);
            print_num(fb, nb);
        }
    }
    return 0;
}
