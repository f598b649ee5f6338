/* matinv.c - Gauss-Jordan matrix inversion with pivoting.

   Algorithms (doubles):
   - invert_full_pivot: in-place Gauss-Jordan with complete pivoting: each
     step searches the whole not-yet-used part of the matrix for the largest
     element, swaps its row onto the diagonal, normalizes the pivot row,
     eliminates the pivot column from every other row, and at the end undoes
     the column interchanges in reverse order.  The determinant is the product
     of the pivots with the sign flipped per row swap.
   - invert_augmented: Gauss-Jordan with partial (row) pivoting on the
     augmented matrix [A | I], reducing the left half to I.
   Both inverses are checked: A * inv(A) must be the identity within a
   tolerance, and the two methods must agree.  A pivot below a tolerance
   means the matrix is singular (early exit).

   Data: matrices of sizes 3 to 16 from a 32-bit LCG, of five kinds:
   uniform random, symmetric positive definite (B B^T + n I), sparse
   (mostly zero, with a shuffled strong diagonal: pivoting must swap rows),
   unimodular integer matrices (products of integer elementary row
   operations, determinant +1 or -1, so the inverse is an integer matrix),
   and integer matrices whose last row is the sum of two others (singular),
   every other one nudged by 1 in one element (invertible).

   Control flow for path profiling: the pivot search is a doubly nested loop
   with a "column already used" test and a data-dependent "new maximum"
   branch; the elimination loops skip the pivot row and rows whose factor is
   zero (frequent for sparse matrices); the row swap is conditional; the
   column unscrambling loop runs backwards with a conditional swap; early
   exit on singular pivots; the generator switches on the matrix kind; the
   verification is a triple loop nest.

   Loop-heavy: yes (triply nested elimination and verification loops). */
#include <stdio.h>
#include <math.h>

unsigned rng_state = 161803398u;

unsigned next_random(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 1;
}

double random_unit(void) {
    return (double)(next_random() >> 7) / 16777216.0 * 2.0 - 1.0;
}

double original[16][16];
double inverse[16][16];
double augmented[16][32];
double product_error_full, product_error_aug;
double determinant;

int used_column[16], pivot_rows[16], pivot_cols[16];

/* In-place complete-pivoting Gauss-Jordan on a[0..n); returns 0 if singular. */
int invert_full_pivot(double a[][16], int n) {
    determinant = 1.0;
    for (int j = 0; j < n; j++)
        used_column[j] = 0;
    for (int step = 0; step < n; step++) {
        double largest = -1.0;
        int prow = 0, pcol = 0;
        for (int i = 0; i < n; i++) {
            if (used_column[i])
                continue;
            for (int j = 0; j < n; j++) {
                if (used_column[j])
                    continue;
                double m = fabs(a[i][j]);
                if (m > largest) {
                    largest = m;
                    prow = i;
                    pcol = j;
                }
            }
        }
        if (largest < 1e-10)
            return 0;
        used_column[pcol] = 1;
        /* Move the pivot onto the diagonal: swap rows prow and pcol. */
        if (prow != pcol) {
            for (int j = 0; j < n; j++) {
                double t = a[prow][j];
                a[prow][j] = a[pcol][j];
                a[pcol][j] = t;
            }
            determinant = -determinant;
        }
        pivot_rows[step] = prow;
        pivot_cols[step] = pcol;
        double pivot = a[pcol][pcol];
        determinant *= pivot;
        a[pcol][pcol] = 1.0;
        for (int j = 0; j < n; j++)
            a[pcol][j] /= pivot;
        for (int i = 0; i < n; i++) {
            if (i == pcol)
                continue;
            double factor = a[i][pcol];
            if (factor == 0.0)
                continue;
            a[i][pcol] = 0.0;
            for (int j = 0; j < n; j++)
                a[i][j] -= a[pcol][j] * factor;
        }
    }
    /* Undo the interchanges as column swaps, last first. */
    for (int step = n - 1; step >= 0; step--) {
        int r = pivot_rows[step], c = pivot_cols[step];
        if (r == c)
            continue;
        for (int i = 0; i < n; i++) {
            double t = a[i][r];
            a[i][r] = a[i][c];
            a[i][c] = t;
        }
    }
    return 1;
}

/* Partial pivoting on [A | I]; the inverse is left in augmented[.][n..2n). */
int invert_augmented(int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 2 * n; j++)
            augmented[i][j] = j < n ? original[i][j] : (j - n == i ? 1.0 : 0.0);
    for (int col = 0; col < n; col++) {
        int best = col;
        for (int i = col + 1; i < n; i++)
            if (fabs(augmented[i][col]) > fabs(augmented[best][col]))
                best = i;
        if (fabs(augmented[best][col]) < 1e-10)
            return 0;
        if (best != col) {
            for (int j = 0; j < 2 * n; j++) {
                double t = augmented[col][j];
                augmented[col][j] = augmented[best][j];
                augmented[best][j] = t;
            }
        }
        double pivot = augmented[col][col];
        for (int j = col; j < 2 * n; j++)
            augmented[col][j] /= pivot;
        for (int i = 0; i < n; i++) {
            double factor = augmented[i][col];
            if (i == col || factor == 0.0)
                continue;
            for (int j = col; j < 2 * n; j++)
                augmented[i][j] -= factor * augmented[col][j];
        }
    }
    return 1;
}

/* Largest |(A * X - I)[i][j]| for X = inverse (which == 0) or augmented. */
double identity_error(int n, int which) {
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += original[i][k] * (which == 0 ? inverse[k][j] : augmented[k][n + j]);
            double e = fabs(s - (i == j ? 1.0 : 0.0));
            if (e > worst)
                worst = e;
        }
    }
    return worst;
}

void generate(int n, int kind, int variant) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            original[i][j] = 0.0;
    switch (kind) {
    case 0:
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                original[i][j] = random_unit();
        break;
    case 1: { /* B B^T + n I, B kept in inverse[][] temporarily */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                inverse[i][j] = random_unit();
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = i == j ? n : 0.0;
                for (int k = 0; k < n; k++)
                    s += inverse[i][k] * inverse[j][k];
                original[i][j] = s;
            }
        break;
    }
    case 2: { /* sparse with a strong diagonal, rows rotated by a shift */
        int shift = 1 + (int)(next_random() % (unsigned)(n - 1));
        for (int i = 0; i < n; i++) {
            original[(i + shift) % n][i] = 4.0 + random_unit();
            if (next_random() % 4u == 0u)
                original[i][(int)(next_random() % (unsigned)n)] += random_unit();
        }
        break;
    }
    case 3: /* unimodular: identity plus random integer row operations */
        for (int i = 0; i < n; i++)
            original[i][i] = 1.0;
        for (int op = 0; op < 2 * n; op++) {
            int target = (int)(next_random() % (unsigned)n);
            int source = (target + 1 + (int)(next_random() % (unsigned)(n - 1))) % n;
            double multiple = (double)((int)(next_random() % 5u) - 2);
            for (int j = 0; j < n; j++)
                original[target][j] += multiple * original[source][j];
        }
        break;
    default: /* singular: last row = row 0 + row 1 (odd variants: nudged) */
        for (int i = 0; i < n - 1; i++)
            for (int j = 0; j < n; j++)
                original[i][j] = (double)((int)(next_random() % 19u) - 9);
        for (int j = 0; j < n; j++)
            original[n - 1][j] = original[0][j] + original[1][j];
        if (variant % 2 == 1)
            original[n - 1][(int)(next_random() % (unsigned)n)] += 1.0;
        break;
    }
}

int main(void) {
    const int per_group = 240;
    int failures = 0;
    unsigned det_hash = 0u;
    for (int group = 0; group < 25; group++) {
        int n = 3 + (group * 3) % 14;
        int kind = group % 5;
        int singular = 0, integral = 1;
        double worst_full = 0.0, worst_aug = 0.0, worst_diff = 0.0, log_det_sum = 0.0;
        for (int m = 0; m < per_group; m++) {
            generate(n, kind, m);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    inverse[i][j] = original[i][j];
            int ok_full = invert_full_pivot(inverse, n);
            int ok_aug = invert_augmented(n);
            if (ok_full != ok_aug)
                failures++;
            if (!ok_full || !ok_aug) {
                singular++;
                continue;
            }
            log_det_sum += log(fabs(determinant));
            det_hash = det_hash * 31u + (determinant < 0.0 ? 1u : 2u);
            double e_full = identity_error(n, 0), e_aug = identity_error(n, 1);
            if (e_full > worst_full)
                worst_full = e_full;
            if (e_aug > worst_aug)
                worst_aug = e_aug;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double d = fabs(inverse[i][j] - augmented[i][n + j]);
                    if (d > worst_diff)
                        worst_diff = d;
                    if (kind == 3 && fabs(inverse[i][j] - floor(inverse[i][j] + 0.5)) > 1e-6)
                        integral = 0;
                }
        }
        if (worst_full > 1e-8 || worst_aug > 1e-8 || !integral || (kind == 4 ? singular < per_group / 2 || singular == per_group : singular != 0))
            failures++;
        if (fabs(log_det_sum) < 5e-6) /* unimodular: avoid printing rounding noise */
            log_det_sum = 0.0;
        printf("group %2d n=%2d kind %d: singular %2d log|det| sum %11.5f "
               "|AX-I| %.2e %.2e diff %.2e integral %d\n",
               group, n, kind, singular, log_det_sum, worst_full, worst_aug, worst_diff,
               integral);
    }
    printf("determinant sign hash %08x failures %d\n", det_hash, failures);
    return failures == 0 ? 0 : 1;
}
