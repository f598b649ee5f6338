/* Hash table with separate chaining: malloc'd entries with owned string keys, insert/update, lookup, delete through pointer-to-pointer, resize by relinking. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Entry {
    char *key;
    int value;
    struct Entry *next;
} Entry;

typedef struct {
    Entry **buckets;
    unsigned nbuckets;
    unsigned count;
    int resizes;
} Table;

static unsigned hash(const char *s) {
    unsigned h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

static void t_init(Table *t, unsigned n) {
    t->buckets = calloc(n, sizeof(Entry *));
    t->nbuckets = n;
    t->count = 0;
    t->resizes = 0;
}

static void t_resize(Table *t) {
    unsigned n = t->nbuckets * 2;
    Entry **nb = calloc(n, sizeof(Entry *));
    for (unsigned i = 0; i < t->nbuckets; i++) {
        Entry *e = t->buckets[i];
        while (e) {
            Entry *next = e->next;
            unsigned j = hash(e->key) % n;
            e->next = nb[j];
            nb[j] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
    t->resizes++;
}

static Entry *t_find(const Table *t, const char *key) {
    for (Entry *e = t->buckets[hash(key) % t->nbuckets]; e; e = e->next)
        if (strcmp(e->key, key) == 0) return e;
    return NULL;
}

static void t_add(Table *t, const char *key, int delta) {
    Entry *e = t_find(t, key);
    if (e) {
        e->value += delta;
        return;
    }
    if (t->count + 1 > t->nbuckets * 3 / 4) t_resize(t);
    e = malloc(sizeof *e);
    e->key = malloc(strlen(key) + 1);
    strcpy(e->key, key);
    e->value = delta;
    unsigned i = hash(key) % t->nbuckets;
    e->next = t->buckets[i];
    t->buckets[i] = e;
    t->count++;
}

static int t_remove(Table *t, const char *key) {
    Entry **pp = &t->buckets[hash(key) % t->nbuckets];
    while (*pp) {
        if (strcmp((*pp)->key, key) == 0) {
            Entry *dead = *pp;
            *pp = dead->next;
            free(dead->key);
            free(dead);
            t->count--;
            return 1;
        }
        pp = &(*pp)->next;
    }
    return 0;
}

static void t_free(Table *t) {
    for (unsigned i = 0; i < t->nbuckets; i++) {
        Entry *e = t->buckets[i];
        while (e) {
            Entry *next = e->next;
            free(e->key);
            free(e);
            e = next;
        }
    }
    free(t->buckets);
}

int main(void) {
    static const char *const parts[] = {"ba", "ko", "ri", "tu", "me", "sa", "lo", "ne"};
    Table t;
    t_init(&t, 4);
    unsigned seed = 7;
    for (int i = 0; i < 3000; i++) {
        char word[16] = "";
        seed = seed * 1664525u + 1013904223u;
        int nparts = 1 + (int)((seed >> 28) % 3);
        for (int k = 0; k < nparts; k++) strcat(word, parts[(seed >> (4 * k + 8)) & 7]);
        t_add(&t, word, 1);
    }
    printf("distinct %u buckets %u resizes %d\n", t.count, t.nbuckets, t.resizes);
    int longest = 0, empty = 0;
    for (unsigned i = 0; i < t.nbuckets; i++) {
        int len = 0;
        for (Entry *e = t.buckets[i]; e; e = e->next) len++;
        if (len > longest) longest = len;
        empty += len == 0;
    }
    printf("longest chain %d empty buckets %u\n", longest, (unsigned)empty);
    const char *probe[] = {"ba", "koko", "rime", "zz", "sasasa", "nelo"};
    for (int i = 0; i < 6; i++) {
        Entry *e = t_find(&t, probe[i]);
        printf("%s=%d ", probe[i], e ? e->value : -1);
    }
    printf("\n");
    int removed = 0;
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b += 3) {
            char k[8];
            strcpy(k, parts[a]);
            strcat(k, parts[b]);
            removed += t_remove(&t, k);
        }
    int first = t_remove(&t, "ba");
    int second = t_remove(&t, "ba");
    printf("removed %d, ba removed twice: %d %d, now %u\n", removed, first, second, t.count);
    long total = 0;
    unsigned mixsum = 0;
    for (unsigned i = 0; i < t.nbuckets; i++)
        for (Entry *e = t.buckets[i]; e; e = e->next) {
            total += e->value;
            mixsum += hash(e->key) * (unsigned)e->value;
        }
    printf("total %ld mix %u\n", total, mixsum);
    t_free(&t);
    return removed > 20 ? 2 : 12;
}
