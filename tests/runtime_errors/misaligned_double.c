/* Runtime error: misaligned access: a double written through a pointer into a byte buffer at an odd offset. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    unsigned char *buf = malloc(32);
    for (int i = 0; i < 32; i++) buf[i] = 0;
    double *slot = (double *)(void *)(buf + 8);
    *slot = 1.5;
    printf("aligned store ok, byte 15 = %#x\n", buf[15]);
    slot = (double *)(void *)(buf + 3);
    *slot = 2.5;
    printf("not reached %#x\n", buf[10]);
    free(buf);
    return 0;
}
