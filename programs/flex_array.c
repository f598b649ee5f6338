/* C99 flexible array members: malloc(sizeof header + n * elem), sizeof excludes the array, growth with realloc, arrays of pointers to such blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int len;
    int cap;
    double data[];
} Series;

typedef struct {
    unsigned short len;
    char text[];
} PString;

static Series *series_new(int cap) {
    Series *s = malloc(sizeof(Series) + (size_t)cap * sizeof(double));
    s->len = 0;
    s->cap = cap;
    return s;
}

static Series *series_push(Series *s, double v) {
    if (s->len == s->cap) {
        int cap = s->cap * 2;
        Series *g = realloc(s, sizeof(Series) + (size_t)cap * sizeof(double));
        if (g == NULL) exit(70);
        s = g;
        s->cap = cap;
    }
    s->data[s->len++] = v;
    return s;
}

static PString *pstr(const char *src) {
    size_t n = strlen(src);
    PString *p = malloc(sizeof(PString) + n + 1);
    p->len = (unsigned short)n;
    memcpy(p->text, src, n + 1);
    return p;
}

static int pstr_cmp(const void *a, const void *b) {
    const PString *x = *(PString *const *)a, *y = *(PString *const *)b;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return strcmp(x->text, y->text);
}

int main(void) {
    printf("sizeof Series %zu PString %zu\n", sizeof(Series), sizeof(PString));
    Series *s = series_new(2);
    for (int i = 1; i <= 20; i++) s = series_push(s, 1.0 / i);
    double sum = 0;
    for (const double *p = s->data; p < s->data + s->len; p++) sum += *p;
    printf("len %d cap %d harmonic %.6f last %.4f\n", s->len, s->cap, sum, s->data[s->len - 1]);
    free(s);

    const char *words[] = {"flexible", "array", "member", "is", "c99", "only", "zz"};
    enum { NW = sizeof words / sizeof words[0] };
    PString *ps[NW];
    for (int i = 0; i < NW; i++) ps[i] = pstr(words[i]);
    ps[3]->text[0] = 'I';
    qsort(ps, NW, sizeof ps[0], pstr_cmp);
    int total = 0;
    for (int i = 0; i < NW; i++) {
        total += ps[i]->len;
        printf("%d:%s%c", ps[i]->len, ps[i]->text, i + 1 < NW ? ' ' : '\n');
    }
    printf("total %d\n", total);
    for (int i = 0; i < NW; i++) free(ps[i]);

    /* a block with a header and its payload in one allocation */
    struct packet {
        unsigned char kind;
        unsigned short n;
        unsigned char bytes[];
    } *pk = malloc(sizeof(struct packet) + 10);
    pk->kind = 3;
    pk->n = 10;
    for (int i = 0; i < pk->n; i++) pk->bytes[i] = (unsigned char)(i * 29);
    unsigned check = pk->kind;
    for (int i = 0; i < pk->n; i++) check = check * 7 + pk->bytes[i];
    printf("packet sizeof %zu offset of bytes %ld check %u\n", sizeof(struct packet),
           (long)((char *)pk->bytes - (char *)pk), check);
    int status = pk->bytes[9] % 16;
    free(pk);
    return status;
}
