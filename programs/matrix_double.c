/* Matrix code with doubles: multiplication, Gaussian elimination with
   partial pivoting, determinant, inverse check, power iteration. */
#include <stdio.h>
#include <math.h>


void matmul(double a[][6], double b[][6], double c[][6]) {
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double s = 0.0;
            for (int k = 0; k < 6; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

void print_matrix(double m[][6]) {
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) printf("%10.4f", m[i][j]);
        printf("\n");
    }
}

/* solves a x = b in place (a and b are destroyed); returns the determinant */
double gauss(double a[][6], double b[], double x[]) {
    double det = 1.0;
    for (int col = 0; col < 6; col++) {
        int piv = col;
        for (int r = col + 1; r < 6; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col])) piv = r;
        if (piv != col) {
            for (int k = 0; k < 6; k++) {
                double t = a[col][k];
                a[col][k] = a[piv][k];
                a[piv][k] = t;
            }
            double t = b[col];
            b[col] = b[piv];
            b[piv] = t;
            det = -det;
        }
        det *= a[col][col];
        for (int r = col + 1; r < 6; r++) {
            double f = a[r][col] / a[col][col];
            for (int k = col; k < 6; k++) a[r][k] -= f * a[col][k];
            b[r] -= f * b[col];
        }
    }
    for (int r = 6 - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < 6; k++) s -= a[r][k] * x[k];
        x[r] = s / a[r][r];
    }
    return det;
}

int main(void) {
    double a[6][6], b[6][6], c[6][6], work[6][6];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            a[i][j] = 1.0 / (i + j + 1) + (i == j ? 2.0 : 0.0);
            b[i][j] = sin(i * 1.3 + j * 0.7);
        }
    matmul(a, b, c);
    printf("A*B =\n");
    print_matrix(c);
    double rhs[6], x[6], rhs_copy[6];
    for (int i = 0; i < 6; i++) {
        rhs[i] = i + 1.0;
        rhs_copy[i] = rhs[i];
        for (int j = 0; j < 6; j++) work[i][j] = a[i][j];
    }
    double det = gauss(work, rhs, x);
    printf("det(A) = %.10f\n", det);
    for (int i = 0; i < 6; i++) printf("x[%d] = %.10f\n", i, x[i]);
    double resid = 0.0;
    for (int i = 0; i < 6; i++) {
        double s = 0.0;
        for (int j = 0; j < 6; j++) s += a[i][j] * x[j];
        resid += fabs(s - rhs_copy[i]);
    }
    printf("residual small: %d\n", resid < 1e-12);
    /* power iteration for the dominant eigenvalue of A */
    double v[6], w[6];
    for (int i = 0; i < 6; i++) v[i] = 1.0;
    double lambda = 0.0;
    for (int it = 0; it < 50; it++) {
        double norm = 0.0;
        for (int i = 0; i < 6; i++) {
            w[i] = 0.0;
            for (int j = 0; j < 6; j++) w[i] += a[i][j] * v[j];
            norm += w[i] * w[i];
        }
        norm = sqrt(norm);
        lambda = 0.0;
        for (int i = 0; i < 6; i++) {
            lambda += v[i] * w[i];
            v[i] = w[i] / norm;
        }
        if (it % 10 == 9) printf("iteration %d: lambda ~ %.12f\n", it + 1, lambda);
    }
    /* identity check: A * A^-1 via column solves */
    double inv[6][6], prod[6][6];
    for (int col = 0; col < 6; col++) {
        double e[6], sol[6];
        for (int i = 0; i < 6; i++) {
            e[i] = i == col ? 1.0 : 0.0;
            for (int j = 0; j < 6; j++) work[i][j] = a[i][j];
        }
        gauss(work, e, sol);
        for (int i = 0; i < 6; i++) inv[i][col] = sol[i];
    }
    matmul(a, inv, prod);
    double err = 0.0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) err += fabs(prod[i][j] - (i == j ? 1.0 : 0.0));
    printf("inverse error small: %d\n", err < 1e-10);
    printf("inv[0][0] = %.12f, inv[5][5] = %.12f\n", inv[0][0], inv[5][5]);
    return 0;
}
