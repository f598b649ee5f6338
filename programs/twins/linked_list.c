/* Twin benchmark: singly linked lists of malloc'd nodes: build, traverse, reverse, delete, merge sort, dedup, sorted insert. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Node {
    int val;
    struct Node *next;
} Node;

static unsigned seed = 7;

static int rnd(int m) {
    seed = seed * 1664525u + 1013904223u;
    return (int)((seed >> 8) % (unsigned)m);
}

static Node *new_node(int val, Node *next) {
    Node *n = malloc(sizeof *n);
    if (n == NULL) exit(3);
    n->val = val;
    n->next = next;
    return n;
}

static int length(const Node *p) {
    int n = 0;
    for (; p != NULL; p = p->next) n++;
    return n;
}

static int checksum(const Node *p) {
    int h = 0;
    for (; p != NULL; p = p->next) h = (h * 31 + p->val) % 1000003;
    return h;
}

static Node *reverse(Node *head) {
    Node *prev = NULL;
    while (head != NULL) {
        Node *nx = head->next;
        head->next = prev;
        prev = head;
        head = nx;
    }
    return prev;
}

/* Unlinks and frees every node whose value is a multiple of d. */
static Node *delete_multiples(Node *head, int d, int *removed) {
    Node **pp = &head;
    while (*pp != NULL) {
        Node *cur = *pp;
        if (cur->val % d == 0) {
            *pp = cur->next;
            free(cur);
            (*removed)++;
        } else {
            pp = &cur->next;
        }
    }
    return head;
}

static Node *merge(Node *a, Node *b) {
    Node dummy;
    Node *t = &dummy;
    dummy.next = NULL;
    while (a != NULL && b != NULL) {
        if (a->val <= b->val) {
            t->next = a;
            a = a->next;
        } else {
            t->next = b;
            b = b->next;
        }
        t = t->next;
    }
    t->next = (a != NULL) ? a : b;
    return dummy.next;
}

static Node *merge_sort(Node *h) {
    if (h == NULL || h->next == NULL) return h;
    Node *slow = h, *fast = h->next;
    while (fast != NULL && fast->next != NULL) {
        slow = slow->next;
        fast = fast->next->next;
    }
    Node *second = slow->next;
    slow->next = NULL;
    Node *a = merge_sort(h);
    Node *b = merge_sort(second);
    return merge(a, b);
}

static int is_sorted(const Node *p) {
    for (; p != NULL && p->next != NULL; p = p->next)
        if (p->val > p->next->val) return 0;
    return 1;
}

/* Removes adjacent duplicates from a sorted list. */
static int dedup(Node *h) {
    int removed = 0;
    while (h != NULL && h->next != NULL) {
        if (h->next->val == h->val) {
            Node *d = h->next;
            h->next = d->next;
            free(d);
            removed++;
        } else {
            h = h->next;
        }
    }
    return removed;
}

static void insert_sorted(Node **head, int v) {
    Node **pp = head;
    while (*pp != NULL && (*pp)->val < v) pp = &(*pp)->next;
    *pp = new_node(v, *pp);
}

static const Node *nth(const Node *p, int k) {
    while (k-- > 0) p = p->next;
    return p;
}

static void free_list(Node *p) {
    while (p != NULL) {
        Node *nx = p->next;
        free(p);
        p = nx;
    }
}

int main(void) {
    int rounds = 40;
    long total_len = 0, total_sum = 0;
    int total_removed = 0, total_dups = 0;
    for (int r = 0; r < rounds; r++) {
        Node *head = NULL;
        int n = 2000 + rnd(1000);
        for (int i = 0; i < n; i++) head = new_node(rnd(100000), head);
        Node *tail = head;
        while (tail->next != NULL) tail = tail->next;
        for (int i = 0; i < n / 2; i++) {
            tail->next = new_node(rnd(50000), NULL);
            tail = tail->next;
        }
        int len = length(head);
        int c1 = checksum(head);
        head = reverse(head);
        int c2 = checksum(head);
        int removed = 0;
        head = delete_multiples(head, 3 + r % 5, &removed);
        head = merge_sort(head);
        int ok = is_sorted(head);
        int dups = dedup(head);
        for (int k = 0; k < 300; k++) insert_sorted(&head, rnd(100000));
        ok = ok && is_sorted(head);
        int len2 = length(head);
        int c3 = checksum(head);
        int mid = nth(head, len2 / 2)->val;
        long sum = 0;
        for (const Node *p = head; p != NULL; p = p->next) sum += p->val;
        free_list(head);
        total_len += len2;
        total_sum += sum;
        total_removed += removed;
        total_dups += dups;
        if (r % 8 == 0)
            printf("round %d: len %d c1 %d c2 %d removed %d dups %d len2 %d c3 %d mid %d sorted %d\n",
                   r, len, c1, c2, removed, dups, len2, c3, mid, ok);
    }
    printf("total len %ld sum %ld removed %d dups %d seed %u\n",
           total_len, total_sum, total_removed, total_dups, seed);
    return 0;
}
