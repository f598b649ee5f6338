/* Runtime error: null pointer dereference (read) of a lookup result that was not checked. */
#include <stdio.h>

static int table[4] = {10, 20, 30, 40};

static int *find(int value) {
    for (int i = 0; i < 4; i++)
        if (table[i] == value) return &table[i];
    return NULL;
}

int main(void) {
    int *a = find(30);
    printf("found 30: %d\n", *a);
    int *b = find(35);
    printf("found 35: %d\n", *b);
    return 0;
}
