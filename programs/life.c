/* Conway's game of life on a 20x40 torus using char grids, with a glider,
   a blinker and an R-pentomino; prints several generations and counts. */
#include <stdio.h>

char grid[20][40];
char next[20][40];

void set(int r, int c) { grid[(r + 20) % 20][(c + 40) % 40] = 1; }

int neighbours(int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (dr == 0 && dc == 0) continue;
            n += grid[(r + dr + 20) % 20][(c + dc + 40) % 40];
        }
    return n;
}

int step(void) {
    int alive = 0;
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 40; c++) {
            int n = neighbours(r, c);
            next[r][c] = (char)(n == 3 || (n == 2 && grid[r][c]));
            alive += next[r][c];
        }
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 40; c++) grid[r][c] = next[r][c];
    return alive;
}

void show(void) {
    for (int r = 0; r < 20; r++) {
        for (int c = 0; c < 40; c++) putchar(grid[r][c] ? '#' : '.');
        putchar('\n');
    }
}

int main(void) {
    /* glider */
    set(1, 2); set(2, 3); set(3, 1); set(3, 2); set(3, 3);
    /* blinker */
    set(10, 30); set(10, 31); set(10, 32);
    /* R-pentomino */
    set(12, 15); set(12, 16); set(13, 14); set(13, 15); set(14, 15);
    show();
    for (int g = 1; g <= 60; g++) {
        int alive = step();
        if (g % 5 == 0) printf("generation %d: %d alive\n", g, alive);
    }
    show();
    return 0;
}
