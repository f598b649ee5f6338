/* Heap allocation: malloc, calloc zero fill, realloc growth/shrink keeping contents, realloc(NULL), free(NULL), malloc'd strings and arrays of structs, a string builder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *buf;
    size_t len, cap;
    int grows;
} Builder;

static void sb_append(Builder *b, const char *s) {
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4;
        while (b->len + n + 1 > cap) cap *= 2;
        char *nb = realloc(b->buf, cap);
        if (nb == NULL) exit(90);
        b->buf = nb;
        b->cap = cap;
        b->grows++;
    }
    memcpy(b->buf + b->len, s, n + 1);
    b->len += n;
}

static char *dup_str(const char *s) {
    char *d = malloc(strlen(s) + 1);
    if (d != NULL) strcpy(d, s);
    return d;
}

static char *join(const char *a, const char *sep, const char *b) {
    size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
    char *r = malloc(n);
    strcpy(r, a);
    strcat(r, sep);
    strcat(r, b);
    return r;
}

typedef struct {
    int id;
    double score;
    char *label;
} Rec;

int main(void) {
    int *zeros = calloc(10, sizeof *zeros);
    int nonzero = 0;
    for (int i = 0; i < 10; i++) nonzero += zeros[i] != 0;
    printf("calloc nonzero %d\n", nonzero);

    int *grow = NULL;
    size_t n = 0;
    for (int step = 1; step <= 5; step++) {
        size_t newn = n + (size_t)step * 3;
        int *g = realloc(grow, newn * sizeof *g);
        if (g == NULL) return 91;
        grow = g;
        for (size_t i = n; i < newn; i++) grow[i] = (int)(i * i);
        n = newn;
    }
    long sum = 0;
    for (size_t i = 0; i < n; i++) sum += grow[i];
    printf("grown to %zu, sum %ld, last %d\n", n, sum, grow[n - 1]);
    grow = realloc(grow, 4 * sizeof *grow);
    printf("shrunk keeps prefix: %d %d %d %d\n", grow[0], grow[1], grow[2], grow[3]);
    free(grow);
    free(NULL);

    char *s = dup_str("heap string");
    s[0] = 'H';
    char *j = join(s, " + ", "more");
    printf("%s | %s (%zu)\n", s, j, strlen(j));
    free(s);
    free(j);

    Builder b = {NULL, 0, 0, 0};
    for (int i = 0; i < 20; i++) {
        char piece[16];
        sprintf(piece, "%d%s", i * i, i % 5 == 4 ? ";" : ",");
        sb_append(&b, piece);
    }
    printf("builder len %zu cap %zu grows %d: %s\n", b.len, b.cap, b.grows, b.buf);
    free(b.buf);

    int count = 6;
    Rec *recs = malloc((size_t)count * sizeof *recs);
    const char *labels[] = {"x", "yy", "zzz"};
    for (int i = 0; i < count; i++) {
        recs[i].id = 100 + i;
        recs[i].score = i * 1.5;
        recs[i].label = join(labels[i % 3], "#", labels[(i + 1) % 3]);
    }
    Rec *more = realloc(recs, (size_t)(count + 2) * sizeof *more);
    recs = more;
    recs[count] = recs[0];
    recs[count].label = dup_str("copy");
    recs[count + 1].id = 0;
    recs[count + 1].score = -1;
    recs[count + 1].label = NULL;
    count += 2;
    double total = 0;
    for (int i = 0; i < count; i++) {
        total += recs[i].score;
        printf("%d:%s%c", recs[i].id, recs[i].label ? recs[i].label : "(null)", i + 1 < count ? ' ' : '\n');
    }
    for (int i = 0; i < count; i++) free(recs[i].label);
    free(recs);
    printf("total score %.1f\n", total);

    unsigned char *block = malloc(256);
    memset(block, 0, 256);
    for (int i = 0; i < 256; i += 3) block[i] = (unsigned char)i;
    unsigned char *copy = malloc(256);
    memcpy(copy, block, 256);
    int diff = memcmp(block, copy, 256);
    copy[255] ^= 1;
    int diff2 = memcmp(block, copy, 256) < 0;
    printf("memcmp equal %d, after flip less %d\n", diff == 0, diff2);
    free(block);
    free(copy);
    free(zeros);
    return b.grows;
}
