/* exit with a negative status from a function called in a loop condition:
   the process status is the low 8 bits (-3 -> 253). */
#include <stdio.h>
#include <stdlib.h>

int check(int v) {
    if (v > 40) {
        printf("limit reached at %d\n", v);
        exit(-3);
    }
    return v * 3;
}

int main(void) {
    int v = 1;
    while (check(v) < 1000) {
        printf("v = %d\n", v);
        v += v / 2 + 1;
    }
    printf("not reached\n");
    return 0;
}
