/* The order in which gcc -O0 evaluates what C leaves unspecified: call
   arguments (user functions, printf, library functions), element stores and
   compound assignments with side-effecting indices and values, operators with
   calls on both sides, a global read against a call that changes it. Each
   line prints the trace of side effects. The defined orders (comma, ?:, &&,
   ||, initializers, return) are printed too. (Under -fsanitize=undefined gcc
   evaluates some operands in another order: the reference is plain -O0.) */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

int g;
int a[10];
int m[4][4];
int c3[3][3][3];
char ca[4];
long la[4];
double da[6];

int f(int x) {
    printf("f%d ", x);
    return x;
}

double d(int x) {
    printf("d%d ", x);
    return x;
}

/* Prints, then sets the global g. */
int s(int x) {
    printf("s%d ", x);
    g = x;
    return x;
}

int h2(int x, int y) {
    printf("h(%d,%d) ", x, y);
    return x + y;
}

int h3(int x, int y, int z) {
    printf("h3(%d,%d,%d) ", x, y, z);
    return x + y + z;
}

int h8(int p1, int p2, int p3, int p4, int p5, int p6, int p7, int p8) {
    printf("h8 ");
    return p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8;
}

int first(int v[], int x) {
    printf("first ");
    return v[0] + x;
}

int sum2(void) {
    return f(1) * 10 + f(2);
}

void line(int n) {
    printf("\n%d: ", n);
}

int main(void) {
    int x = 0;
    int y = 0;
    long l = 0;
    double r = 0.0;
    int i;

    /* Call arguments: last to first, recursively. */
    line(1);
    x = h2(f(1), f(2));
    x = h3(f(1), f(2), f(3));
    x = h3(f(1), h2(f(2), f(3)), f(4));
    x = h3(f(1) + f(2), 5, f(3) * f(4));
    x = h8(f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8));
    line(2);
    printf("[%d %d %f %d]", f(1), f(2), d(3), f(4));
    line(3);
    r = pow(d(1), d(2));
    r = atan2(d(3), d(4)) + fmod(d(5), d(6));
    x = abs(f(7)) + putchar('a' + f(8) * 0);
    line(4);
    m[1][0] = 5;
    x = first(m[f(1)], f(2));
    x = first(m[f(1)], first(m[f(2)], f(3)));
    g = 0;
    x = h2(g, s(8));
    x = h2(s(9), g);

    /* Element stores: a call as the value comes after the indices (its
       arguments before them); any other value comes first. */
    line(5);
    a[f(1)] = f(2);
    m[f(1)][f(2)] = f(3);
    c3[f(1)][f(2)][f(0)] = f(2);
    a[f(1)] = h2(f(2), f(3));
    da[f(1)] = pow(d(2), d(3));
    a[f(1)] = putchar('A' + f(2) * 0);
    line(6);
    a[f(1)] = f(2) + f(3);
    a[f(1)] = -f(2);
    ca[f(1)] = f(2);
    la[f(1)] = f(2);
    da[f(1)] = f(2);
    da[f(1)] = d(2);
    a[f(1)] = a[f(2)];
    x = a[f(1)] = f(2);
    x = (a[f(1)] = f(2)) + f(3);
    a[f(1)] = a[f(2)] = f(3);
    a[f(1)] = (f(2), f(3));
    a[f(1)] = f(2) ? f(3) : f(4);
    line(7);
    g = 0;
    a[0] = 0;
    a[3] = 0;
    a[g] = s(3);
    printf("a0=%d a3=%d ", a[0], a[3]);
    g = 1;
    a[1] = 0;
    a[2] = 0;
    a[g] = -s(2);
    printf("a1=%d a2=%d ", a[1], a[2]);

    /* Compound assignment: a value with side effects comes first. */
    line(8);
    a[f(1)] += f(3);
    m[f(1)][f(2)] += f(3);
    c3[f(1)][f(2)][f(0)] *= f(2);
    x = (a[f(1)] -= f(2));
    a[f(1)] += 1;
    g = 1;
    a[f(1)] -= g;
    line(9);
    g = 1;
    a[1] = 7;
    a[2] = 9;
    a[g] += s(2);
    printf("a1=%d a2=%d ", a[1], a[2]);
    g = 0;
    x = g += s(5);
    printf("x=%d ", x);
    y = 3;
    y += s(4);
    printf("y=%d ", y);
    g = 0;
    a[0] = 0;
    a[1] = 0;
    a[g] += a[s(1)] = 5;
    printf("a0=%d a1=%d ", a[0], a[1]);
    line(10);
    for (i = 0; i < 6; i++) {
        da[i] = 0.0;
    }
    g = 4;
    da[s(1)] += sqrt(g);
    g = 4;
    da[s(2)] += floor(g);
    g = 4;
    da[s(3)] += sin(g);
    g = 4;
    da[s(4)] += exp(g);
    g = 4;
    da[s(5)] += fabs(g + 0.5);
    printf("[%.4f %.4f %.4f %.4f %.4f]", da[1], da[2], da[3], da[4], da[5]);

    /* ++ and -- on elements; loads of elements. */
    line(11);
    a[f(1)]++;
    ++a[f(2)];
    m[f(1)][f(2)]--;
    x = m[f(1)][f(2)] + c3[f(0)][f(1)][f(2)];
    x = a[f(1)]++ + a[f(2)]--;

    /* Binary operators: left to right... */
    line(12);
    x = f(1) + f(2);
    x = f(1) * f(2);
    x = f(1) < f(2);
    x = f(1) == f(2);
    x = f(1) & f(2);
    x = f(1) << f(2);
    x = f(1) / f(2);
    x = f(1) % f(2);
    x = f(1) - f(2);
    x = f(1) | f(2);
    x = f(1) ^ f(2);
    x = f(1) > f(2);
    x = f(1) >> f(2);
    line(13);
    r = d(1) + d(2);
    r = d(1) * d(2);
    x = d(1) < d(2);
    l = f(1) + (long)f(2);
    x = -f(1) * f(2);
    x = f(1) + -f(2);
    x = -f(1) + -f(2);
    x = -f(1) - f(2);
    x = !f(1) + f(2);
    if (f(1) < f(2)) {
        x = 1;
    }
    while (f(3) > f(4)) {
        x = 2;
    }
    /* ...except where gcc's folding reorders: (-A) + B is B - A, (~A) + B is
       B - A - 1, A - (B - C) is A + (C - B). */
    line(14);
    x = -f(1) + f(2);
    x = ~f(1) + f(2);
    x = -f(1) + ~f(2);
    r = -d(1) + d(2);
    x = f(1) - (f(2) - f(3));
    r = d(1) - (d(2) - d(3));
    l = (long)f(1) - ((long)f(2) - (long)f(3));
    g = 0;
    x = f(1) - (s(2) - g);
    printf("x=%d ", x);
    /* A global read on the left of a commutative operator or a comparison
       moves to the right (after the call). */
    line(15);
    g = 0;
    x = g + s(5);
    printf("x=%d ", x);
    g = 0;
    x = s(5) + g;
    printf("x=%d ", x);
    g = 0;
    x = g * s(5);
    printf("x=%d ", x);
    g = 0;
    x = g - s(5);
    printf("x=%d ", x);
    g = 0;
    x = g < s(5);
    printf("x=%d ", x);
    g = 0;
    if (g < s(5)) {
        printf("lt ");
    } else {
        printf("ge ");
    }
    g = 0;
    x = g & s(5);
    printf("x=%d ", x);
    g = 0;
    x = g << s(1);
    printf("x=%d ", x);
    g = 7;
    x = g / s(1);
    printf("x=%d ", x);
    g = 0;
    x = (unsigned)g + (unsigned)s(2);
    printf("x=%d ", x);
    g = 0;
    l = (long)g + s(3);
    printf("l=%ld ", l);
    g = 0;
    r = g + d(2) + s(3);
    printf("r=%g ", r);
    a[1] = 0;
    g = 1;
    x = a[1] + s(6);
    printf("x=%d ", x);
    g = 2;
    x = f(g) + s(9);
    printf("x=%d ", x);

    /* Defined orders: comma, ?:, &&, ||, initializers, return. */
    line(16);
    x = (f(1), f(2));
    x = f(0) ? f(1) : f(2);
    x = f(1) ? f(3) : f(4);
    x = f(1) && f(2);
    x = f(0) || f(2);
    {
        int b[2] = {f(1), f(2)};
        int b2[2][2] = {{f(1), f(2)}, {f(3), f(4)}};
        x = b[0] + b2[1][1];
    }
    x = sum2();
    printf("x=%d", x);
    printf("\n");
    return 0;
}
