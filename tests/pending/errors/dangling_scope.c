/* Runtime error: a pointer to a block-scope local is used after the block ended (lifetime over, same function). */
#include <stdio.h>

int main(void) {
    int *p = NULL;
    int total = 0;
    for (int i = 0; i < 3; i++) {
        int square = i * i;
        total += square;
        if (i == 2) p = &square;
    }
    printf("total %d\n", total);
    *p += 1;
    printf("not reached %d\n", total);
    return 0;
}
