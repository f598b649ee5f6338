/* Compares the VM's qsort (lang/src/prelude/qsort.c, renamed vm_qsort) with the C library's: the
   same comparison calls in the same order, the same sorted bytes. Run by lang/tests/prelude_gcc.rs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
void vm_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
static long calls; static unsigned trace;
struct rec { int key; int id; };
static int cmp(const void *a, const void *b) {
    const struct rec *x = a, *y = b; calls++;
    trace = trace * 31 + (unsigned)(x->id * 7 + y->id);
    return (x->key > y->key) - (x->key < y->key);
}
int main(void) {
    unsigned seed = 12345;
    for (int round = 0; round < 300; round++) {
        int n = round % 97;
        struct rec a[100], b[100];
        for (int i = 0; i < n; i++) { seed = seed * 1103515245u + 12345u; a[i].key = (seed >> 16) % (round % 7 + 1); a[i].id = i; }
        memcpy(b, a, sizeof a);
        calls = 0; trace = 0; qsort(a, n, sizeof a[0], cmp); long c1 = calls; unsigned t1 = trace;
        calls = 0; trace = 0; vm_qsort(b, n, sizeof b[0], cmp); long c2 = calls; unsigned t2 = trace;
        if (c1 != c2 || t1 != t2 || memcmp(a, b, n * sizeof a[0])) { printf("differ at round %d n=%d: %ld %ld\n", round, n, c1, c2); return 1; }
    }
    printf("same\n");
    return 0;
}
