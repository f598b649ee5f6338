/* Binary search tree of malloc'd nodes: insert, search, delete (leaf, one child, two children) via pointer-to-pointer, traversals, height, validation, free. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

typedef struct Node {
    int key;
    int count;
    struct Node *left, *right;
} Node;

static int live_nodes = 0;

static void insert(Node **root, int key) {
    while (*root) {
        if (key == (*root)->key) {
            (*root)->count++;
            return;
        }
        root = key < (*root)->key ? &(*root)->left : &(*root)->right;
    }
    Node *n = malloc(sizeof *n);
    n->key = key;
    n->count = 1;
    n->left = n->right = NULL;
    *root = n;
    live_nodes++;
}

static Node **find_link(Node **root, int key) {
    while (*root && (*root)->key != key) root = key < (*root)->key ? &(*root)->left : &(*root)->right;
    return root;
}

static int delete_key(Node **root, int key) {
    Node **link = find_link(root, key);
    Node *n = *link;
    if (n == NULL) return 0;
    if (n->left && n->right) {
        /* replace with the in-order successor, then unlink the successor */
        Node **succ = &n->right;
        while ((*succ)->left) succ = &(*succ)->left;
        Node *s = *succ;
        n->key = s->key;
        n->count = s->count;
        *succ = s->right;
        free(s);
    } else {
        *link = n->left ? n->left : n->right;
        free(n);
    }
    live_nodes--;
    return 1;
}

static int height(const Node *n) {
    if (!n) return 0;
    int l = height(n->left), r = height(n->right);
    return 1 + (l > r ? l : r);
}

static int valid(const Node *n, long lo, long hi) {
    if (!n) return 1;
    if (n->key <= lo || n->key >= hi) return 0;
    return valid(n->left, lo, n->key) && valid(n->right, n->key, hi);
}

static int inorder(const Node *n, int *out, int pos) {
    if (!n) return pos;
    pos = inorder(n->left, out, pos);
    out[pos++] = n->key;
    return inorder(n->right, out, pos);
}

static void free_tree(Node *n) {
    if (!n) return;
    free_tree(n->left);
    free_tree(n->right);
    free(n);
    live_nodes--;
}

static void summary(const char *label, const Node *root) {
    int keys[512];
    int n = inorder(root, keys, 0);
    long sum = 0;
    for (int i = 0; i < n; i++) sum += (long)keys[i] * (i + 1);
    printf("%-14s nodes %3d height %2d valid %d weighted %ld", label, n, height(root), valid(root, LONG_MIN, LONG_MAX),
           sum);
    if (n > 0) printf(" min %d max %d", keys[0], keys[n - 1]);
    printf("\n");
}

int main(void) {
    Node *root = NULL;
    unsigned seed = 99;
    for (int i = 0; i < 400; i++) {
        seed = seed * 1664525u + 1013904223u;
        insert(&root, (int)(seed >> 22));
    }
    summary("built", root);
    int dups = 0;
    int stack_keys[512];
    int n = inorder(root, stack_keys, 0);
    for (int i = 0; i < n; i++) dups += (*find_link(&root, stack_keys[i]))->count - 1;
    printf("duplicates %d live %d\n", dups, live_nodes);

    int root_key = root->key;
    delete_key(&root, root_key);
    summary("root deleted", root);
    int deleted = 0;
    for (int k = 0; k < 1024; k += 3) deleted += delete_key(&root, k);
    summary("thirds gone", root);
    printf("deleted %d, missing delete %d\n", deleted, delete_key(&root, 3));
    for (int k = 1000; k < 1024; k++) insert(&root, k);
    summary("reinserted", root);
    while (root && root->left) delete_key(&root, root->left->key);
    summary("left pruned", root);
    free_tree(root);
    printf("live after free %d\n", live_nodes);
    return height(NULL) + (root_key & 7);
}
