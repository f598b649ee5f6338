/* Twin benchmark: dense double matrix multiplication (naive i-k-j order
   avoided: plain i-j-k with a running sum), then a checksum. */
#include <stdio.h>

double a[180][180], b[180][180], c[180][180];

int main(void) {
    int n = 180;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = (double)(i * n + j) / (n * n);
            b[i][j] = (double)(j - i) / n + 0.5;
        }
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];
                c[i][j] = s;
            }
        double sum = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) sum += c[i][j];
        printf("rep %d: sum %.9f c[0][0] %.9f c[90][60] %.9f c[179][179] %.9f\n", rep, sum, c[0][0], c[90][60],
               c[179][179]);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a[i][j] = c[i][j] / n;
    }
    return 0;
}
