/* Arrays of pointers as parameters (`node *table[N]`, `const char *names[]`): C makes each a
   pointer to its first element, and the elements keep their pointed-to types. The hashed
   container of a public embedded suite (sglib) is written so. */
#include <stdio.h>
#include <stddef.h>

#define BUCKETS 7

typedef struct node {
    int key;
    struct node *next;
} node;

static void table_init(node *table[BUCKETS]) {
    unsigned i;
    for (i = 0; i < BUCKETS; i++) table[i] = NULL;
}

static void table_add(node *table[BUCKETS], node *n) {
    unsigned h = (unsigned)n->key % BUCKETS;
    n->next = table[h];
    table[h] = n;
}

static node *table_find(node *table[], int key) {
    node *p;
    for (p = table[(unsigned)key % BUCKETS]; p != NULL; p = p->next)
        if (p->key == key) return p;
    return NULL;
}

static int longest(const char *names[], int n) {
    int best = 0, i;
    for (i = 0; i < n; i++) {
        int len = 0;
        while (names[i][len] != '\0') len++;
        if (len > best) best = len;
    }
    return best;
}

static void swap_rows(int *rows[2][2]) {
    int *t = rows[0][0];
    rows[0][0] = rows[1][1];
    rows[1][1] = t;
}

int main(void) {
    node *table[BUCKETS];
    node pool[20];
    const char *names[] = {"path", "profiling", "ball", "larus"};
    int a = 1, b = 2, i, found = 0;
    int *rows[2][2] = {{&a, NULL}, {NULL, &b}};
    table_init(table);
    for (i = 0; i < 20; i++) {
        pool[i].key = i * 5 + 3;
        table_add(table, &pool[i]);
    }
    for (i = 0; i < 120; i++)
        if (table_find(table, i) != NULL) found += i;
    printf("found sum %d\n", found);
    printf("longest name %d\n", longest(names, 4));
    swap_rows(rows);
    printf("%d %d\n", *rows[0][0], *rows[1][1]);
    return 0;
}
