/* Runtime error: double free of the same heap block in a cleanup path. */
#include <stdio.h>
#include <stdlib.h>

static void cleanup(int *p) { free(p); }

int main(void) {
    int *data = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++) data[i] = i;
    printf("data[7] = %d\n", data[7]);
    cleanup(data);
    printf("cleaned up once\n");
    free(data);
    printf("not reached\n");
    return 0;
}
