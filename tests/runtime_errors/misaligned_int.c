/* Runtime error: misaligned access: an int read through a char pointer offset by 1, cast to int *. */
#include <stdio.h>

static int read_int(const char *p) { return *(const int *)p; }

int main(void) {
    int words[4] = {0x01020304, 0x05060708, 0, 0};
    const char *bytes = (const char *)words;
    printf("aligned read %#x\n", (unsigned)read_int(bytes + 4));
    printf("misaligned read %#x\n", (unsigned)read_int(bytes + 1));
    return 0;
}
