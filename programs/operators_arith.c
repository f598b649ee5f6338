/* Arithmetic operators + - * / % and unary + - on every type, with
   C99 truncating division and guarded INT_MIN / -1 cases. */
#include <stdio.h>

int idiv(int a, int b) {
    if (b == 0) return 0;
    return a / b;
}

int imod(int a, int b) {
    if (b == 0) return 0;
    return a % b;
}

int main(void) {
    int iv[6] = {17, -17, 5, -5, 0, 1};
    long lv[4] = {1000000000000L, -999999999999L, 7L, -3L};
    unsigned uv[4] = {4000000000u, 17u, 3u, 0u};
    unsigned long ulv[3] = {18000000000000000000ul, 12345ul, 7ul};
    double dv[4] = {7.5, -2.25, 0.1, 3.0};
    char cv[4] = {100, -100, 7, -3};

    for (int a = 0; a < 6; a++) {
        for (int b = 0; b < 6; b++) {
            printf("%d %d: + %d - %d * %d / %d %% %d\n", iv[a], iv[b],
                   iv[a] + iv[b], iv[a] - iv[b], iv[a] * iv[b],
                   idiv(iv[a], iv[b]), imod(iv[a], iv[b]));
        }
    }
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            printf("L %ld %ld: + %ld - %ld * %ld / %ld %% %ld\n", lv[a], lv[b],
                   lv[a] + lv[b], lv[a] - lv[b], lv[a] * lv[b], lv[a] / lv[b], lv[a] % lv[b]);
        }
    }
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 3; b++) {
            printf("U %u %u: + %u - %u * %u / %u %% %u\n", uv[a], uv[b],
                   uv[a] + uv[b], uv[a] - uv[b], uv[a] * uv[b], uv[a] / uv[b], uv[a] % uv[b]);
        }
    }
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            printf("UL %lu %lu: + %lu - %lu * %lu / %lu %% %lu\n", ulv[a], ulv[b],
                   ulv[a] + ulv[b], ulv[a] - ulv[b], ulv[a] * ulv[b], ulv[a] / ulv[b],
                   ulv[a] % ulv[b]);
        }
    }
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            printf("D %g %g: + %g - %g * %g / %.10g\n", dv[a], dv[b],
                   dv[a] + dv[b], dv[a] - dv[b], dv[a] * dv[b], dv[a] / dv[b]);
        }
    }
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            printf("C %d %d: + %d - %d * %d / %d %% %d\n", cv[a], cv[b],
                   cv[a] + cv[b], cv[a] - cv[b], cv[a] * cv[b], cv[a] / cv[b], cv[a] % cv[b]);
        }
    }
    /* unary operators */
    int x = 5;
    unsigned ux = 5;
    long lx = -5;
    double dx = -0.5;
    char cx = -128;
    printf("unary: %d %d %u %ld %ld %.2f %.2f %d %d\n", -x, +x, -ux, -lx, +lx, -dx, +dx, -cx, +cx);
    int big = 2147483647;
    printf("-(-2147483647-1) = %d\n", -(x - x - big - 1));
    /* INT_MIN / -1 and LONG_MIN / -1 wrap under -fwrapv in the VM; here we
       only print their guarded forms */
    int m = -2147483647 - 1;
    printf("INT_MIN / 2 = %d, INT_MIN %% 3 = %d\n", m / 2, m % 3);
    long lm = -9223372036854775807L - 1;
    printf("LONG_MIN / 10 = %ld, LONG_MIN %% 10 = %ld\n", lm / 10, lm % 10);
    /* precedence and associativity */
    printf("%d %d %d %d\n", 2 + 3 * 4, (2 + 3) * 4, 100 / 10 / 5, 100 - 10 - 5);
    printf("%d %d\n", -7 / 2 * 2 + -7 % 2, 7 % -3);
    return 0;
}
