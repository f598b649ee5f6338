/* The VM's qsort: glibc's merge sort (msort.c's msort_with_tmp, the algorithm glibc 2.36's
   qsort uses when it can allocate its temporary buffer), so the comparison function is
   called on the same pairs in the same order as with glibc, and equal elements keep their
   order. */
#include <stdlib.h>
#include <string.h>

static void vm_qsort_merge(char *b, size_t n, size_t s, char *t,
                           int (*cmp)(const void *, const void *)) {
    size_t n1, n2;
    char *b1, *b2, *tmp;
    if (n <= 1)
        return;
    n1 = n / 2;
    n2 = n - n1;
    b1 = b;
    b2 = b + n1 * s;
    vm_qsort_merge(b1, n1, s, t, cmp);
    vm_qsort_merge(b2, n2, s, t, cmp);
    tmp = t;
    while (n1 > 0 && n2 > 0) {
        if (cmp(b1, b2) <= 0) {
            memcpy(tmp, b1, s);
            b1 += s;
            --n1;
        } else {
            memcpy(tmp, b2, s);
            b2 += s;
            --n2;
        }
        tmp += s;
    }
    if (n1 > 0)
        memcpy(tmp, b1, n1 * s);
    memcpy(b, t, (n - n2) * s);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    char *t;
    if (n <= 1 || size == 0)
        return;
    t = malloc(n * size);
    vm_qsort_merge(base, n, size, t, cmp);
    free(t);
}
