/* Combinatorial tables: Pascal's triangle (long, printed centred with
   widths), a magic square by the Siamese method, a spiral matrix, and
   multiplication tables printed with fixed field widths. */
#include <stdio.h>

long pascal[21][21];
int magic[7][7];
int spiral[6][8];

int main(void) {
    for (int n = 0; n <= 20; n++) {
        pascal[n][0] = pascal[n][n] = 1;
        for (int k = 1; k < n; k++) pascal[n][k] = pascal[n - 1][k - 1] + pascal[n - 1][k];
    }
    for (int n = 0; n <= 10; n++) {
        for (int s = 0; s < 10 - n; s++) printf("  ");
        for (int k = 0; k <= n; k++) printf("%4ld", pascal[n][k]);
        printf("\n");
    }
    long row_sum = 0;
    for (int k = 0; k <= 20; k++) row_sum += pascal[20][k];
    printf("C(20,10) = %ld, row 20 sum = %ld\n", pascal[20][10], row_sum);

    int n = 7, r = 0, c = n / 2;
    for (int v = 1; v <= n * n; v++) {
        magic[r][c] = v;
        int nr = (r - 1 + n) % n, nc = (c + 1) % n;
        if (magic[nr][nc]) {
            nr = (r + 1) % n;
            nc = c;
        }
        r = nr;
        c = nc;
    }
    int ok = 1, target = n * (n * n + 1) / 2;
    for (int i = 0; i < n; i++) {
        int rs = 0, cs = 0;
        for (int j = 0; j < n; j++) {
            rs += magic[i][j];
            cs += magic[j][i];
            printf("%3d", magic[i][j]);
        }
        printf("\n");
        if (rs != target || cs != target) ok = 0;
    }
    int d1 = 0, d2 = 0;
    for (int i = 0; i < n; i++) {
        d1 += magic[i][i];
        d2 += magic[i][n - 1 - i];
    }
    printf("magic ok=%d target=%d diagonals %d %d\n", ok, target, d1, d2);

    int top = 0, bottom = 5, left = 0, right = 7, v = 1;
    while (top <= bottom && left <= right) {
        for (int j = left; j <= right; j++) spiral[top][j] = v++;
        top++;
        for (int i = top; i <= bottom; i++) spiral[i][right] = v++;
        right--;
        if (top <= bottom) {
            for (int j = right; j >= left; j--) spiral[bottom][j] = v++;
            bottom--;
        }
        if (left <= right) {
            for (int i = bottom; i >= top; i--) spiral[i][left] = v++;
            left++;
        }
    }
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 8; j++) printf("%-4d", spiral[i][j]);
        printf("|\n");
    }
    for (int i = 1; i <= 9; i++) {
        for (int j = 1; j <= i; j++) printf("%dx%d=%-3d", j, i, i * j);
        printf("\n");
    }
    return 0;
}
