/* Arrays of structures as parameters: C makes them pointers to the first element (one and
   two dimensions, const elements, an interior pointer passed). */
#include <stdio.h>
struct pt { int x; double w; };
static double total(struct pt pts[], int n) {
    double s = 0;
    int i;
    for (i = 0; i < n; i++) s += pts[i].x * pts[i].w;
    pts[0].x = 99;
    return s;
}
static int grid(const struct pt g[][2], int rows) {
    int r, t = 0;
    for (r = 0; r < rows; r++) t += g[r][0].x + g[r][1].x;
    return t;
}
int main(void) {
    struct pt a[3] = {{1, 0.5}, {2, 1.5}, {3, 2.5}};
    struct pt m[2][2] = {{{1, 0}, {2, 0}}, {{3, 0}, {4, 0}}};
    printf("%g %d %d\n", total(a, 3), a[0].x, grid(m, 2));
    printf("%g\n", total(a + 1, 2));
    return 0;
}
