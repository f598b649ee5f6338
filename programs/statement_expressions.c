/* GNU C statement expressions: typeof-based macros evaluating their arguments once, a
   structure value, loops inside, nesting, and break, continue and return out of one. */
#include <stdio.h>
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define SWAP(x, y) do { __typeof__(x) _t = (x); (x) = (y); (y) = _t; } while (0)
struct pt { int x, y; };
static int calls;
static int next(void) { return ++calls; }
static int f(int n) {
    int total = 0, i;
    for (i = 0; i < 10; i++) {
        total += ({ if (i == n) break; if (i % 2) continue; i * 2; });
    }
    return total + ({ if (n > 8) return -1; 100; });
}

int main(void) {
    int i = 3, j = 7, k;
    double d = MAX(2.5, i);
    int m = MAX(next(), next());
    struct pt p = ({ struct pt q = {i, j}; q.x += 10; q; });
    k = ({ int s = 0, n; for (n = 0; n < 5; n++) { if (n == 3) continue; s += n; } s; });
    ({ printf("side %d\n", k); });
    SWAP(i, j);
    printf("%g %d %d %d %d %d %d %d\n", d, m, calls, p.x, p.y, k, i, j);
    printf("%d\n", ({ int z = ({ int w = 4; w * w; }); z + 1; }));
    printf("%d %d %d\n", f(5), f(9), f(20));
    return 0;
}
