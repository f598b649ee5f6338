/* Mandelbrot set in ASCII (escape-time with doubles), plus a Julia set
   and the area estimate from the iteration counts. */
#include <stdio.h>

int escape(double cr, double ci, int max_iter) {
    double zr = 0.0, zi = 0.0;
    int i = 0;
    while (i < max_iter && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        i++;
    }
    return i;
}

int main(void) {
    char shades[10] = {' ', '.', ':', '-', '=', '+', '*', '#', '%', '@'};
    int inside = 0, cells = 0;
    for (int y = 0; y < 24; y++) {
        double ci = -1.2 + y * 0.1;
        for (int x = 0; x < 64; x++) {
            double cr = -2.1 + x * 0.045;
            int it = escape(cr, ci, 60);
            cells++;
            if (it == 60) inside++;
            putchar(it == 60 ? '@' : shades[it % 9]);
        }
        putchar('\n');
    }
    printf("inside %d of %d cells, area estimate %.4f\n", inside, cells, 2.88 * 2.4 * inside / cells);
    /* Julia set for c = -0.8 + 0.156i */
    for (int y = 0; y < 12; y++) {
        for (int x = 0; x < 48; x++) {
            double zr = -1.6 + x * (3.2 / 48), zi = -1.0 + y * (2.0 / 12);
            int i = 0;
            for (; i < 40; i++) {
                double zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0) break;
                zi = 2 * zr * zi + 0.156;
                zr = zr2 - zi2 - 0.8;
            }
            putchar(i >= 40 ? '#' : i > 10 ? '+' : i > 4 ? '.' : ' ');
        }
        putchar('\n');
    }
    return 0;
}
