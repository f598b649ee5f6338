/* Grid geometry. `count` here is this file's own, unrelated to stats.c's. */
#include "shapes.h"

const int grid_size = GRID;
static int count;

static int absolute(int x) {
    return x < 0 ? -x : x;
}

int area(int w, int h) {
    count++;
    return w * h;
}

int manhattan(int x1, int y1, int x2, int y2) {
    count++;
    return absolute(x1 - x2) + absolute(y1 - y2);
}

void fill_grid(int grid[][GRID], int seed) {
    unsigned state = (unsigned)seed;
    for (int i = 0; i < GRID; i++) {
        for (int j = 0; j < GRID; j++) {
            state = state * 1103515245u + 12345u;
            grid[i][j] = (int)((state >> 16) % 100u);
        }
    }
    count++;
}

int geometry_calls(void) {
    return count;
}
