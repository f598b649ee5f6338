/* Runtime error: an int (4 bytes) read from a 2-byte char array, running 2 bytes past its end. */
#include <stdio.h>

static int as_int(const void *p) { return *(const int *)p; }

int main(void) {
    char pair[2] = {'o', 'k'};
    printf("pair %c%c\n", pair[0], pair[1]);
    int v = as_int(pair);
    printf("as int %d\n", v);
    return 0;
}
