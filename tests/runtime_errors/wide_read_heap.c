/* Runtime error: a double (8 bytes) read from a heap block of sizeof(float) (4 bytes). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    float *f = malloc(sizeof(float));
    *f = 1.25f;
    printf("float %.2f\n", *f);
    double *d = (double *)(void *)f;
    printf("as double %f\n", *d);
    free(f);
    return 0;
}
