/* N-queens by backtracking with column/diagonal occupancy arrays, for
   N = 1..9; prints counts and the first solution for N = 8 as a board. */
#include <stdio.h>

int cols[16], diag1[32], diag2[32], place[16];
int solutions = 0;
int printed = 0;

void print_board(int n) {
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) putchar(place[r] == c ? 'Q' : '.');
        putchar('\n');
    }
}

void solve(int row, int n) {
    if (row == n) {
        solutions++;
        if (n == 8 && !printed) {
            print_board(n);
            printed = 1;
        }
        return;
    }
    for (int c = 0; c < n; c++) {
        if (cols[c] || diag1[row + c] || diag2[row - c + n]) continue;
        cols[c] = diag1[row + c] = diag2[row - c + n] = 1;
        place[row] = c;
        solve(row + 1, n);
        cols[c] = diag1[row + c] = diag2[row - c + n] = 0;
    }
}

/* bitmask version: counts solutions using unsigned masks */
int count_bits(unsigned all, unsigned ld, unsigned cl, unsigned rd) {
    if (cl == all) return 1;
    int total = 0;
    unsigned avail = all & ~(ld | cl | rd);
    while (avail) {
        unsigned bit = avail & -avail;
        avail -= bit;
        total += count_bits(all, (ld | bit) << 1, cl | bit, (rd | bit) >> 1);
    }
    return total;
}

int main(void) {
    for (int n = 1; n <= 9; n++) {
        solutions = 0;
        solve(0, n);
        unsigned all = (1u << n) - 1;
        printf("n=%d solutions=%d bitmask=%d\n", n, solutions, count_bits(all, 0, 0, 0));
    }
    return 0;
}
