/* Runtime error: out-of-bounds read past the end of a local array of structs, walking with p <= end. */
#include <stdio.h>

struct point {
    int x, y;
};

int main(void) {
    struct point pts[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
    int sx = 0, sy = 0;
    for (const struct point *p = pts; p < pts + 4; p++) sx += p->x;
    printf("sum of x = %d\n", sx);
    for (const struct point *p = pts; p <= pts + 4; p++) sy += p->y;
    printf("sum of y = %d\n", sy);
    return 0;
}
