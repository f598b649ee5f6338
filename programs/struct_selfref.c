/* Self-referential and mutually referential structs: doubly linked list with sentinel, forward-declared struct pointers, parent links. */
#include <stdio.h>
#include <stdlib.h>

struct dnode {
    int key;
    struct dnode *prev, *next;
};

struct dept;  /* incomplete for now */

struct person {
    const char *name;
    struct dept *dept;
    struct person *manager;
};

struct dept {
    const char *title;
    struct person *head;
    int size;
};

static void dl_init(struct dnode *s) { s->prev = s->next = s; }

static struct dnode *dl_insert_after(struct dnode *pos, int key) {
    struct dnode *n = malloc(sizeof *n);
    n->key = key;
    n->prev = pos;
    n->next = pos->next;
    pos->next->prev = n;
    pos->next = n;
    return n;
}

static void dl_remove(struct dnode *n) {
    n->prev->next = n->next;
    n->next->prev = n->prev;
    free(n);
}

static void dl_print(const char *label, const struct dnode *s) {
    printf("%s:", label);
    for (const struct dnode *p = s->next; p != s; p = p->next) printf(" %d", p->key);
    printf(" | back:");
    for (const struct dnode *p = s->prev; p != s; p = p->prev) printf(" %d", p->key);
    printf("\n");
}

static int chain_length(const struct person *p) {
    int n = 0;
    while (p->manager != NULL) {
        p = p->manager;
        n++;
    }
    return n;
}

int main(void) {
    struct dnode sentinel;
    dl_init(&sentinel);
    for (int i = 1; i <= 6; i++) dl_insert_after(sentinel.prev, i * i);
    dl_insert_after(&sentinel, 0);
    dl_print("list", &sentinel);

    /* remove odd keys, then insert doubled copies after evens */
    struct dnode *p = sentinel.next;
    while (p != &sentinel) {
        struct dnode *next = p->next;
        if (p->key % 2 != 0) dl_remove(p);
        else dl_insert_after(p, p->key * 2);
        p = next;
    }
    dl_print("edited", &sentinel);

    /* rotate: move first node to the end three times, by relinking only */
    for (int r = 0; r < 3; r++) {
        struct dnode *first = sentinel.next;
        sentinel.next = first->next;
        first->next->prev = &sentinel;
        first->prev = sentinel.prev;
        first->next = &sentinel;
        sentinel.prev->next = first;
        sentinel.prev = first;
    }
    dl_print("rotated", &sentinel);
    int count = 0;
    while (sentinel.next != &sentinel) {
        dl_remove(sentinel.next);
        count++;
    }
    printf("freed %d nodes, empty=%d\n", count, sentinel.next == &sentinel && sentinel.prev == &sentinel);

    struct dept eng = {"Engineering", NULL, 0};
    struct dept ops = {"Operations", NULL, 0};
    struct person staff[5] = {
        {"Alice", &eng, NULL},
        {"Bob", &eng, &staff[0]},
        {"Carol", &ops, &staff[0]},
        {"Dan", &ops, &staff[2]},
        {"Eve", &eng, &staff[1]},
    };
    eng.head = &staff[0];
    ops.head = &staff[2];
    for (int i = 0; i < 5; i++) staff[i].dept->size++;
    for (int i = 0; i < 5; i++) {
        const struct person *s = &staff[i];
        printf("%-5s in %-11s (size %d, head %s) boss %-5s chain %d\n", s->name, s->dept->title, s->dept->size,
               s->dept->head->name, s->manager ? s->manager->name : "-", chain_length(s));
    }
    printf("Eve's boss's boss's dept head: %s\n", staff[4].manager->manager->dept->head->name);
    return chain_length(&staff[3]) + chain_length(&staff[4]) * 10;
}
