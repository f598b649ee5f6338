/* Array parameters given pointers into the middle of their arrays, indexed backwards (C
 * allows a[-1] when the element exists), and heap blocks freed while a caller's array
 * parameter still refers to another block. Hot enough for every function to tier up. */
#include <stdio.h>
#include <stdlib.h>

/* Three-point smoothing: v points at element 1 of its array, so v[-1] exists. */
static void smooth(const int v[], int out[], int n) {
    for (int i = 0; i < n; i++) {
        int s = v[i - 1] + 2 * v[i] + v[i + 1];
        out[i] = s >= 0 ? s / 4 : -((-s) / 4);
    }
}

/* Differences to the previous element, written backwards through the parameter. */
static long back_differences(long d[], int n) {
    long sum = 0;
    for (int i = 0; i > -n; i--) {
        d[i] = d[i] - d[i - 1];
        sum += d[i] * (i % 3 == 0 ? 1 : -1);
    }
    return sum;
}

/* Rows above the given one of a matrix parameter: m[-1] is the previous row. */
static double column_above(double m[][4], int rows_above, int col) {
    double s = 0.0;
    for (int r = 1; r <= rows_above; r++) {
        s += m[-r][col] * r;
    }
    return s;
}

/* Chars before a position in a string, as a text scanner looks behind. */
static int word_start(const char text[], int max_back) {
    int k = 0;
    while (k < max_back && text[-k - 1] != ' ') {
        k++;
    }
    return k;
}

/* Frees a scratch block while the caller still indexes its own (other) array parameter. */
static int *scratch;

static int sum_with_scratch(const int v[], int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += v[i];
    }
    free(scratch);
    scratch = malloc((size_t)(n + 1) * sizeof(int));
    if (scratch == NULL) {
        return -1;
    }
    for (int i = 0; i <= n; i++) {
        scratch[i] = v[i % n] + i;
    }
    return s + v[n - 1] + scratch[n];
}

int main(void) {
    int data[66];
    int out[64];
    unsigned seed = 12345u;
    for (int i = 0; i < 66; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = (int)((seed >> 16) % 2001u) - 1000;
    }
    long checksum = 0;
    for (int round = 0; round < 40; round++) {
        smooth(&data[1], out, 64);
        for (int i = 0; i < 64; i++) {
            checksum = checksum * 31 + out[i];
            data[i + 1] = out[i] + round;
        }
        checksum %= 1000000007L;
    }
    printf("smooth checksum %ld, out[0] %d, out[63] %d\n", checksum, out[0], out[63]);

    long *d = malloc(50 * sizeof(long));
    if (d == NULL) {
        return 1;
    }
    for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 50; i++) {
            d[i] = (long)i * i * (round + 1) - 7 * i;
        }
        long s = back_differences(d + 49, 48);
        if (round % 10 == 0) {
            printf("round %d: back differences %ld, d[48] %ld, d[2] %ld\n", round, s, d[48], d[2]);
        }
    }
    free(d);

    double m[6][4];
    for (int r = 0; r < 6; r++) {
        for (int c = 0; c < 4; c++) {
            m[r][c] = r * 4 + c + 0.5;
        }
    }
    for (int r = 1; r < 6; r++) {
        printf("rows above %d, column %d: %.1f\n", r, r % 4, column_above(&m[r], r, r % 4));
    }

    const char *text = "a path profiler counts paths through loops";
    int pos[] = {6, 15, 22, 29, 40, 42};
    for (int i = 0; i < 6; i++) {
        int k = word_start(text + pos[i], pos[i]);
        printf("word before %d starts %d back: %.*s\n", pos[i], k, k, text + pos[i] - k);
    }

    int values[32];
    for (int i = 0; i < 32; i++) {
        values[i] = 3 * i - 40;
    }
    long total = 0;
    for (int round = 0; round < 200; round++) {
        total += sum_with_scratch(values + round % 8, 24);
    }
    free(scratch);
    printf("sums with scratch %ld\n", total);
    return 0;
}
