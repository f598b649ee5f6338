/* Runtime error: free of a pointer into the middle of a heap block (not the pointer malloc returned). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    double *block = malloc(5 * sizeof(double));
    for (int i = 0; i < 5; i++) block[i] = i * 0.5;
    double *cursor = block;
    while (*cursor < 1.0) cursor++;
    printf("cursor at index %ld value %.1f\n", (long)(cursor - block), *cursor);
    free(cursor);
    printf("not reached\n");
    return 0;
}
