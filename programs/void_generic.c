/* void * genericity: byte-wise swap with memcpy, a growable vector of any element size, generic search/max with comparators, qsort on ints, doubles, strings and structs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void swap_any(void *a, void *b, size_t size) {
    unsigned char tmp[64];
    while (size > 0) {
        size_t chunk = size < sizeof tmp ? size : sizeof tmp;
        memcpy(tmp, a, chunk);
        memcpy(a, b, chunk);
        memcpy(b, tmp, chunk);
        a = (unsigned char *)a + chunk;
        b = (unsigned char *)b + chunk;
        size -= chunk;
    }
}

typedef struct {
    void *data;
    size_t size, len, cap;
} Vector;

static void vec_init(Vector *v, size_t size) {
    v->data = NULL;
    v->size = size;
    v->len = v->cap = 0;
}

static void *vec_at(const Vector *v, size_t i) { return (char *)v->data + i * v->size; }

static void vec_push(Vector *v, const void *elem) {
    if (v->len == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 2;
        v->data = realloc(v->data, v->cap * v->size);
    }
    memcpy(vec_at(v, v->len++), elem, v->size);
}

static void vec_free(Vector *v) {
    free(v->data);
    v->data = NULL;
}

static const void *max_of(const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    const char *best = base;
    for (size_t i = 1; i < n; i++) {
        const char *cur = (const char *)base + i * size;
        if (cmp(cur, best) > 0) best = cur;
    }
    return best;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double_desc(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

typedef struct {
    char code[4];
    short qty;
} Part;

static int cmp_part(const void *a, const void *b) {
    const Part *p = a, *q = b;
    if (p->qty != q->qty) return p->qty - q->qty;
    return strcmp(p->code, q->code);
}

int main(void) {
    int i1 = 5, i2 = -9;
    double d1 = 1.25, d2 = 7.5;
    char s1[8] = "left", s2[8] = "right";
    swap_any(&i1, &i2, sizeof i1);
    swap_any(&d1, &d2, sizeof d1);
    swap_any(s1, s2, sizeof s1);
    printf("swapped: %d %d %.2f %.2f %s %s\n", i1, i2, d1, d2, s1, s2);
    long big1[20], big2[20];
    for (int i = 0; i < 20; i++) {
        big1[i] = i;
        big2[i] = 100 + i;
    }
    swap_any(big1, big2, sizeof big1);
    printf("big swap: %ld %ld %ld %ld\n", big1[0], big1[19], big2[0], big2[19]);

    Vector vi, vp;
    vec_init(&vi, sizeof(int));
    vec_init(&vp, sizeof(Part));
    for (int i = 0; i < 37; i++) {
        int x = (i * 37 + 11) % 50 - 20;
        vec_push(&vi, &x);
    }
    const char *codes[] = {"bolt", "nut", "gear", "cam", "pin", "axle"};
    for (int i = 0; i < 6; i++) {
        Part p;
        memset(&p, 0, sizeof p);
        strncpy(p.code, codes[i], 3);
        p.qty = (short)((i * 7) % 4);
        vec_push(&vp, &p);
    }
    printf("vi len %zu cap %zu max %d\n", vi.len, vi.cap, *(const int *)max_of(vi.data, vi.len, vi.size, cmp_int));
    qsort(vi.data, vi.len, vi.size, cmp_int);
    int *ints = vi.data;
    printf("sorted ints: %d %d %d ... %d\n", ints[0], ints[1], ints[2], ints[vi.len - 1]);
    qsort(vp.data, vp.len, vp.size, cmp_part);
    for (size_t i = 0; i < vp.len; i++) {
        const Part *p = vec_at(&vp, i);
        printf("%s:%d%c", p->code, p->qty, i + 1 < vp.len ? ' ' : '\n');
    }

    double ds[7] = {3.5, -1.0, 2.25, 9.0, 0.0, 2.25, -7.5};
    qsort(ds, 7, sizeof ds[0], cmp_double_desc);
    printf("doubles desc: %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n", ds[0], ds[1], ds[2], ds[3], ds[4], ds[5], ds[6]);

    const char *words[] = {"pear", "apple", "fig", "banana", "cherry"};
    qsort(words, 5, sizeof words[0], cmp_str);
    const char **longest = (const char **)max_of(words, 5, sizeof words[0], cmp_str);
    printf("words: %s %s %s %s %s, max %s\n", words[0], words[1], words[2], words[3], words[4], *longest);

    void *anyp = &d1;
    double *back = anyp;
    *back += 1;
    void *mem = malloc(16);
    memset(mem, 0x41, 15);
    ((char *)mem)[15] = '\0';
    printf("d1 %.2f mem \"%s\"\n", d1, (char *)mem);
    free(mem);
    int status = ints[0] < 0 ? (int)vp.len : 0;
    vec_free(&vi);
    vec_free(&vp);
    return status;
}
