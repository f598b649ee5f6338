/* GNU C's zero-length array members (char data[0]) next to C99's flexible ones, __signed__/__volatile__/__inline__, __builtin_memcpy/memset, the predefined macros of gcc on x86-64, _Static_assert. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
struct msg { int len; char data[0]; };
struct vec { int n; double v[]; };
_Static_assert(sizeof(int) == 4, "int is 4 bytes");
static __inline__ int sq(int x) { return x * x; }
int main(void) {
    __signed__ char c = -3;
    volatile int __volatile__ *vp;
    int arr[4];
    struct msg *m = malloc(sizeof(struct msg) + 6);
    struct vec *w = malloc(sizeof(struct vec) + 3 * sizeof(double));
    __builtin_memset(arr, 0, sizeof arr);
    __builtin_memcpy(m->data, "hello", 6);
    m->len = 5;
    w->n = 3; w->v[2] = 2.5;
    vp = &arr[1];
    *vp = 7;
    printf("%d %d %s %d %g %zu %zu\n", c, arr[1], m->data, sq(m->len), w->v[2], sizeof(struct msg), sizeof(struct vec));
    printf("%d %d %d %d %d %d\n", __CHAR_BIT__, __SIZEOF_INT__, __SIZEOF_LONG__, __SIZEOF_POINTER__, __INT_MAX__ == 2147483647, __LP64__);
#ifdef __x86_64__
    printf("x86_64 %ld\n", __STDC_VERSION__);
#endif
    printf("%d %d %d\n", __builtin_popcount(255u), __builtin_ctz(8), __builtin_clzl(1UL));
    free(m); free(w);
    return 0;
}
