/* Runtime error: double free of the old pointer after realloc already released it. */
#include <stdio.h>
#include <stdlib.h>

static char *grow(char *p, size_t n) { return realloc(p, n); }

static void release(char *p) { free(p); }

int main(void) {
    char *old = malloc(8);
    for (int i = 0; i < 7; i++) old[i] = (char)('a' + i);
    old[7] = '\0';
    printf("old %s\n", old);
    char *grown = grow(old, 1024);
    if (grown == NULL) return 1;
    grown[1023] = '\0';
    printf("grown %.7s\n", grown);
    free(grown);
    release(old);
    printf("not reached\n");
    return 0;
}
