/* Runtime error: out-of-bounds write one past the end of a local char array, through a walking pointer. */
#include <stdio.h>

static void fill(char *dst, int n, char c) {
    for (int i = 0; i < n; i++) *dst++ = c;
}

int main(void) {
    char buf[8];
    int want = 8;
    fill(buf, want - 1, 'a');
    buf[7] = '\0';
    printf("buf = %s\n", buf);
    want++;
    fill(buf, want, 'b');
    printf("not reached %c\n", buf[0]);
    return 0;
}
