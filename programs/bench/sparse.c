/*
 * sparse.c - benchmark: sparse matrix-vector products in compressed-row form.
 *
 * Algorithm: square matrices in compressed sparse row (CSR) storage
 * (row_start[], column[], value[]) are generated with irregular row
 * lengths: a banded matrix with random extra entries, a "power-law" matrix
 * where a few hub rows are very long and most rows short, and a uniformly
 * random one.  Each row's columns are drawn at random, kept sorted and
 * free of duplicates by insertion.  Then, repeatedly:
 *   - y = A x, the scimark sparse kernel (a gather loop per row);
 *   - z = A^T y, computed directly from the CSR arrays by scattering;
 *   - the explicit transpose (CSR of A^T, built by counting columns) times
 *     y, which must equal z bit for bit (the same sums in the same order);
 *   - the identity y . (A x) == (A^T y) . x within rounding;
 *   - a few steps of power iteration (x := A^T A x / |A^T A x|) whose
 *     Rayleigh quotient estimates the largest singular value squared.
 * Data: matrices and vectors from a fixed-seed 32-bit LCG.
 *
 * Control flow for path profiling:
 *   - the product loops are two deep (rows, entries of a row) with an inner
 *     trip count that varies from row to row (1 to a few hundred), so the
 *     number of inner iterations between two outer paths is irregular;
 *   - matrix generation: a switch on the matrix kind picks the row length,
 *     and the insertion loop has an early exit on a duplicate column and a
 *     shifting loop of data-dependent length;
 *   - the transposed build is a counting sort (three loops in sequence);
 *   - loop-free helpers (random column, random value) called per entry.
 *
 * Loop-heavy: yes (almost all time in the row/entry loops of the products).
 */
#include <stdio.h>
#include <math.h>

int row_start[3001];
int column[60000];
double value[60000];

int t_row_start[3001];
int t_column[60000];
double t_value[60000];

double x[3000], y[3000], z[3000], w[3000];

unsigned rng_state = 987654321u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8; /* 24 good bits */
}

/* Scales the 24 random bits to [0, n): the high bits of an LCG are the
   good ones, so no modulo. */
int random_below(int n) {
    return (int)((unsigned long)next_random() * (unsigned long)n >> 24);
}

double random_value(void) {
    return (double)next_random() / 16777216.0 * 2.0 - 1.0;
}

/* Number of entries wanted in a row, by matrix kind. */
int row_length(int kind, int row) {
    switch (kind) {
    case 0: /* banded: 3 to 7 entries */
        return 3 + random_below(5);
    case 1: /* power law: every 97th row is a hub */
        if (row % 97 == 0)
            return 150 + random_below(150);
        return 1 + random_below(4);
    default: /* uniform: 2 to 24 */
        return 2 + random_below(23);
    }
}

/* Generates an n x n matrix of the given kind; returns its entry count. */
int generate(int kind, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        row_start[i] = count;
        int wanted = row_length(kind, i);
        int have = 0;
        for (int attempt = 0; attempt < 2 * wanted && have < wanted; attempt++) {
            int col;
            if (kind == 0 && attempt < 3)
                col = i - 1 + attempt; /* the band: i-1, i, i+1 */
            else
                col = random_below(n);
            if (col < 0 || col >= n)
                continue;
            /* insert col into the sorted row, unless it is already there */
            int pos = row_start[i] + have;
            int duplicate = 0;
            while (pos > row_start[i] && column[pos - 1] >= col) {
                if (column[pos - 1] == col) {
                    duplicate = 1;
                    break;
                }
                pos--;
            }
            if (duplicate)
                continue;
            for (int k = row_start[i] + have; k > pos; k--) {
                column[k] = column[k - 1];
                value[k] = value[k - 1];
            }
            column[pos] = col;
            value[pos] = col == i ? 4.0 : random_value();
            have++;
        }
        count += have;
    }
    row_start[n] = count;
    return count;
}

/* out = A in */
void multiply(int n, const double in[], double out[]) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = row_start[i]; k < row_start[i + 1]; k++)
            sum += value[k] * in[column[k]];
        out[i] = sum;
    }
}

/* out = A^T in, scattering each row of A */
void multiply_transposed(int n, const double in[], double out[]) {
    for (int j = 0; j < n; j++)
        out[j] = 0.0;
    for (int i = 0; i < n; i++) {
        double factor = in[i];
        for (int k = row_start[i]; k < row_start[i + 1]; k++)
            out[column[k]] += value[k] * factor;
    }
}

/* Builds the CSR form of A^T by counting the entries of each column. */
void build_transpose(int n, int entries) {
    for (int j = 0; j <= n; j++)
        t_row_start[j] = 0;
    for (int k = 0; k < entries; k++)
        t_row_start[column[k] + 1]++;
    for (int j = 0; j < n; j++)
        t_row_start[j + 1] += t_row_start[j];
    for (int i = 0; i < n; i++) {
        for (int k = row_start[i]; k < row_start[i + 1]; k++) {
            int j = column[k];
            int slot = t_row_start[j]++;
            t_column[slot] = i;
            t_value[slot] = value[k];
        }
    }
    /* the fill advanced every start by its row length: shift them back */
    for (int j = n; j > 0; j--)
        t_row_start[j] = t_row_start[j - 1];
    t_row_start[0] = 0;
}

void multiply_explicit_transpose(int n, const double in[], double out[]) {
    for (int j = 0; j < n; j++) {
        double sum = 0.0;
        for (int k = t_row_start[j]; k < t_row_start[j + 1]; k++)
            sum += t_value[k] * in[t_column[k]];
        out[j] = sum;
    }
}

double dot(int n, const double a[], const double b[]) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

int main(void) {
    int failures = 0;
    int sizes[3] = {3000, 2500, 2000};

    for (int kind = 0; kind < 3; kind++) {
        int n = sizes[kind];
        int entries = generate(kind, n);
        int longest = 0;
        for (int i = 0; i < n; i++)
            if (row_start[i + 1] - row_start[i] > longest)
                longest = row_start[i + 1] - row_start[i];
        build_transpose(n, entries);
        printf("matrix %d: n %d entries %d longest row %d\n", kind, n, entries, longest);

        for (int i = 0; i < n; i++) {
            x[i] = random_value();
            y[i] = random_value();
        }
        /* adjoint identity and the two transposed products */
        multiply(n, x, z);
        double left = dot(n, y, z);
        multiply_transposed(n, y, z);
        multiply_explicit_transpose(n, y, w);
        double right = dot(n, z, x);
        int same = 1;
        for (int j = 0; j < n; j++)
            if (z[j] != w[j])
                same = 0;
        printf("  y.(Ax) %.9f (A^T y).x %.9f transposes identical %d\n", left, right, same);
        if (!same || fabs(left - right) > 1e-9 * (1.0 + fabs(left)))
            failures++;

        /* repeated products (scimark style): y = A x, x = y scaled */
        double checksum = 0.0;
        for (int rep = 0; rep < 260; rep++) {
            multiply(n, x, y);
            double norm = sqrt(dot(n, y, y));
            for (int i = 0; i < n; i++)
                x[i] = y[i] / norm;
            checksum += norm;
        }
        printf("  repeated products: checksum %.9f\n", checksum);

        /* power iteration on A^T A with the explicit and implicit transposes */
        double estimate = 0.0;
        for (int step = 0; step < 160; step++) {
            multiply(n, x, y);
            if (step % 2 == 0)
                multiply_transposed(n, y, z);
            else
                multiply_explicit_transpose(n, y, z);
            estimate = dot(n, x, z);
            double norm = sqrt(dot(n, z, z));
            for (int i = 0; i < n; i++)
                x[i] = z[i] / norm;
            if (step % 40 == 39)
                printf("  power step %2d: sigma_max^2 ~ %.9f\n", step + 1, estimate);
        }
    }
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
