/* Runtime error: misaligned access: a struct pointer into a packet buffer at offset 2, member read through it. */
#include <stdio.h>

struct header {
    int length;
    int kind;
};

static unsigned char packet[64];

int main(void) {
    for (int i = 0; i < 64; i++) packet[i] = (unsigned char)i;
    const struct header *h = (const struct header *)(void *)(packet + 8);
    printf("aligned header kind %d\n", h->kind);
    h = (const struct header *)(void *)(packet + 2);
    printf("misaligned header kind %d\n", h->kind);
    return 0;
}
