/* Twin benchmark: qsort of an array of structs {int key; double weight; char name[12];} with a table of comparison function pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int key;
    double weight;
    char name[12];
} Item;

#define N 20000

static Item items[N];
static unsigned seed = 2024;

static unsigned next_u(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static void generate(Item *a, int n) {
    for (int i = 0; i < n; i++) {
        Item *it = &a[i];
        it->key = (int)(next_u() % 10000u);
        it->weight = next_u() / 16777216.0 * 100.0;
        int len = 3 + (int)(next_u() % 8u);
        for (int j = 0; j < len; j++) it->name[j] = (char)('a' + next_u() % 26u);
        it->name[len] = '\0';
    }
}

static int cmp_int(int a, int b) { return (a > b) - (a < b); }
static int cmp_double(double a, double b) { return (a > b) - (a < b); }
static int sign(int v) { return (v > 0) - (v < 0); }

static int by_key(const void *pa, const void *pb) {
    const Item *a = pa, *b = pb;
    int c = cmp_int(a->key, b->key);
    if (c == 0) c = sign(strcmp(a->name, b->name));
    if (c == 0) c = cmp_double(a->weight, b->weight);
    return c;
}

static int by_weight_desc(const void *pa, const void *pb) {
    const Item *a = pa, *b = pb;
    int c = cmp_double(b->weight, a->weight);
    if (c == 0) c = cmp_int(a->key, b->key);
    if (c == 0) c = sign(strcmp(a->name, b->name));
    return c;
}

static int by_name(const void *pa, const void *pb) {
    const Item *a = pa, *b = pb;
    int c = sign(strcmp(a->name, b->name));
    if (c == 0) c = cmp_int(b->key, a->key);
    if (c == 0) c = cmp_double(a->weight, b->weight);
    return c;
}

static int by_bucket(const void *pa, const void *pb) {
    const Item *a = pa, *b = pb;
    int c = cmp_int(a->key % 100, b->key % 100);
    if (c == 0) c = cmp_double(a->weight, b->weight);
    if (c == 0) c = sign(strcmp(a->name, b->name));
    if (c == 0) c = cmp_int(a->key, b->key);
    return c;
}

typedef int (*cmp_fn)(const void *, const void *);

static const cmp_fn comparators[4] = {by_key, by_weight_desc, by_name, by_bucket};
static const char *const cmp_names[4] = {"key", "weight_desc", "name", "bucket"};

static int key_hash(const Item *a, int n) {
    int h = 0;
    for (const Item *p = a; p < a + n; p++) h = (h * 31 + p->key) % 1000003;
    return h;
}

static int name_hash(const Item *a, int n) {
    int h = 0;
    for (int i = 0; i < n; i++)
        for (const char *s = a[i].name; *s != '\0'; s++) h = (h * 131 + (unsigned char)*s) % 1000003;
    return h;
}

static int verify(const Item *a, int n, cmp_fn cmp) {
    for (int i = 1; i < n; i++)
        if (cmp(&a[i - 1], &a[i]) > 0) return 0;
    return 1;
}

/* Counts probe keys present in an array sorted by key (pointer binary search). */
static int count_found(const Item *a, int n, int probes) {
    int found = 0;
    for (int k = 0; k < probes; k++) {
        int want = (int)(next_u() % 10000u);
        const Item *lo = a, *hi = a + n;
        while (lo < hi) {
            const Item *mid = lo + (hi - lo) / 2;
            if (mid->key < want) lo = mid + 1;
            else hi = mid;
        }
        if (lo < a + n && lo->key == want) found++;
    }
    return found;
}

int main(void) {
    double grand = 0.0;
    int all_ok = 1;
    for (int pass = 0; pass < 3; pass++) {
        generate(items, N);
        for (int c = 0; c < 4; c++) {
            qsort(items, N, sizeof(Item), comparators[c]);
            int ok = verify(items, N, comparators[c]);
            all_ok = all_ok && ok;
            double ws = 0.0;
            for (int i = 0; i < N; i++) ws += items[i].weight * (i % 7);
            grand += ws;
            printf("pass %d %-11s ok %d keys %7d names %7d ws %.6f first %s/%d last %s/%d\n",
                   pass, cmp_names[c], ok, key_hash(items, N), name_hash(items, N), ws,
                   items[0].name, items[0].key, items[N - 1].name, items[N - 1].key);
            if (c == 0) printf("pass %d found %d of 5000\n", pass, count_found(items, N, 5000));
        }
    }
    printf("grand %.6f seed %u\n", grand, seed);
    return all_ok ? 0 : 1;
}
