/* Twin benchmark: spectral norm of the infinite matrix A(i,j) =
   1/((i+j)(i+j+1)/2+i+1), by power iteration on A^T A. */
#include <stdio.h>
#include <math.h>

double u[500], v[500], tmp[500];

double a(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

void mul_av(int n, double in[], double out[]) {
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += a(i, j) * in[j];
        out[i] = s;
    }
}

void mul_atv(int n, double in[], double out[]) {
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += a(j, i) * in[j];
        out[i] = s;
    }
}

void mul_atav(int n, double in[], double out[]) {
    mul_av(n, in, tmp);
    mul_atv(n, tmp, out);
}

int main(void) {
    int n = 500;
    for (int i = 0; i < n; i++) u[i] = 1.0;
    for (int it = 0; it < 10; it++) {
        mul_atav(n, u, v);
        mul_atav(n, v, u);
        double vbv = 0.0, vv = 0.0;
        for (int i = 0; i < n; i++) {
            vbv += u[i] * v[i];
            vv += v[i] * v[i];
        }
        printf("iteration %d: %.9f\n", it, sqrt(vbv / vv));
    }
    return 0;
}
