/* Twin benchmark: benchmarks-game binary-trees (item-carrying version): build, check and free trees of malloc'd nodes. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Tree {
    struct Tree *left;
    struct Tree *right;
    int item;
} Tree;

static Tree *bottom_up(int item, int depth) {
    Tree *t = malloc(sizeof(Tree));
    if (t == NULL) exit(3);
    t->item = item;
    if (depth > 0) {
        t->left = bottom_up(2 * item - 1, depth - 1);
        t->right = bottom_up(2 * item, depth - 1);
    } else {
        t->left = NULL;
        t->right = NULL;
    }
    return t;
}

static int item_check(const Tree *t) {
    if (t->left == NULL) return t->item;
    int l = item_check(t->left);
    int r = item_check(t->right);
    return t->item + l - r;
}

static void free_tree(Tree *t) {
    if (t->left != NULL) {
        free_tree(t->left);
        free_tree(t->right);
    }
    free(t);
}

int main(void) {
    int min_depth = 4, max_depth = 14;
    int stretch_depth = max_depth + 1;
    Tree *stretch = bottom_up(0, stretch_depth);
    printf("stretch tree of depth %d\t check: %d\n", stretch_depth, item_check(stretch));
    free_tree(stretch);
    Tree *long_lived = bottom_up(0, max_depth);
    for (int d = min_depth; d <= max_depth; d += 2) {
        int iterations = 1;
        for (int k = 0; k < max_depth - d + min_depth; k++) iterations *= 2;
        int check = 0;
        for (int i = 1; i <= iterations; i++) {
            Tree *a = bottom_up(i, d);
            check += item_check(a);
            free_tree(a);
            Tree *b = bottom_up(-i, d);
            check += item_check(b);
            free_tree(b);
        }
        printf("%d\t trees of depth %d\t check: %d\n", iterations * 2, d, check);
    }
    printf("long lived tree of depth %d\t check: %d\n", max_depth, item_check(long_lived));
    free_tree(long_lived);
    return 0;
}
