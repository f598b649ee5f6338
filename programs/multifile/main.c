/* A program of three files: main.c uses stats.c and geometry.c through shapes.h. */
#include <stdio.h>
#include "shapes.h"

static int count = 100; /* main.c's own `count` too */

int main(void) {
    int grid[GRID][GRID];
    fill_grid(grid, 2024);
    for (int i = 0; i < grid_size; i++) {
        for (int j = 0; j < grid_size; j++) {
            if ((i + j) % 3 == 0)
                record(grid[i][j]);
        }
    }
    int far = 0;
    for (int i = 0; i < grid_size; i++)
        far += manhattan(0, 0, i, grid[i][i] % GRID);
    printf("samples %d, total %ld, mean %.3f\n", samples, total, mean());
    printf("area %d, distance sum %d\n", area(grid_size, grid_size + 1), far);
    int peak = histogram_peak();
    count += peak;
    printf("main's count %d, geometry calls %d\n", count, geometry_calls());
    return peak;
}
