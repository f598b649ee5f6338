/* Arrays: one-, two- and three-dimensional arrays of every type, array
   parameters T a[] and T a[][N] passed by reference, rows m[i] passed as
   one-dimensional arrays, local array initializers (zero-filled). */
#include <stdio.h>

void fill(int a[], int n, int start, int step) {
    for (int i = 0; i < n; i++) a[i] = start + i * step;
}

int sum(int a[], int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

void scale_rows(double m[][3], int rows, double f) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < 3; j++) m[i][j] *= f;
}

double row_sum(double r[], int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += r[i];
    return s;
}

void transpose4(long src[][4], long dst[][4]) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) dst[j][i] = src[i][j];
}

void set_cube(char c[][3][4], int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) c[i][j][k] = (char)(i * 100 + j * 10 + k);
}

void plane_total(char plane[][4], int rows, int out[]) {
    out[0] = 0;
    for (int j = 0; j < rows; j++)
        for (int k = 0; k < 4; k++) out[0] += plane[j][k];
}

void ulong_twice(unsigned long a[], int n) {
    for (int i = 0; i < n; i++) a[i] = a[i] * 2 + 1;
}

void reverse_unsigned(unsigned a[], int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        unsigned t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* passes its own parameter on to another function */
int forward_sum(int a[], int n) { return sum(a, n) + sum(a, n / 2); }

int main(void) {
    int a[10];
    fill(a, 10, 3, 4);
    printf("sum = %d, forward = %d\n", sum(a, 10), forward_sum(a, 10));
    int b[6] = {1, 2};
    printf("b: %d %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4], b[5]);
    fill(b, 3, -1, -1);
    printf("b after fill: %d %d %d %d\n", b[0], b[1], b[2], b[3]);

    double m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    scale_rows(m, 3, 0.5);
    for (int i = 0; i < 3; i++) printf("row %d sum %.2f\n", i, row_sum(m[i], 3));
    scale_rows(m, 2, 10.0);
    printf("m[1][2] = %.2f, m[2][2] = %.2f\n", m[1][2], m[2][2]);

    long src[4][4], dst[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) src[i][j] = (long)i * 1000000000000L + j;
    transpose4(src, dst);
    for (int i = 0; i < 4; i++) printf("%ld %ld %ld %ld\n", dst[i][0], dst[i][1], dst[i][2], dst[i][3]);

    char cube[2][3][4];
    set_cube(cube, 2);
    int tot[1];
    for (int i = 0; i < 2; i++) {
        plane_total(cube[i], 3, tot);
        printf("plane %d total %d\n", i, tot[0]);
    }
    printf("cube[1][2][3] = %d\n", cube[1][2][3]);

    unsigned long ul[4] = {0, 1, 9223372036854775807ul, 18446744073709551615ul};
    ulong_twice(ul, 4);
    printf("ulong: %lu %lu %lu %lu\n", ul[0], ul[1], ul[2], ul[3]);
    unsigned u[5] = {1, 2, 3, 4, 5};
    reverse_unsigned(u, 5);
    printf("reversed: %u %u %u %u %u\n", u[0], u[1], u[2], u[3], u[4]);

    /* a row of an int matrix passed to an int[] function */
    int grid[4][5];
    for (int i = 0; i < 4; i++) fill(grid[i], 5, i, i + 1);
    for (int i = 0; i < 4; i++) printf("grid row %d sum %d\n", i, sum(grid[i], 5));
    /* index expressions of various types */
    long li = 2;
    unsigned ui = 3;
    char ci = 1;
    printf("mixed index: %d %d %d\n", a[li], a[ui], grid[ci + 0][li]);
    int idx[3] = {2, 0, 1};
    printf("indirect: %d\n", a[idx[idx[0]]]);
    /* local array initializers run every time the declaration is reached */
    for (int r = 0; r < 3; r++) {
        int fresh[4] = {r, r + 1};
        fresh[3] += 5;
        printf("fresh: %d %d %d %d\n", fresh[0], fresh[1], fresh[2], fresh[3]);
    }
    double zeros[3] = {0};
    printf("zeros: %.1f %.1f %.1f\n", zeros[0], zeros[1], zeros[2]);
    return 0;
}
