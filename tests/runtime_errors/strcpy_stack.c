/* Runtime error: strcpy overflow: copying a 13-character string (14 bytes with its terminator) into a char[8] local. */
#include <stdio.h>
#include <string.h>

static void set_name(char *dst, const char *src) { strcpy(dst, src); }

int main(void) {
    char name[8];
    const char *inputs[2] = {"short", "much too long"};
    for (int i = 0; i < 2; i++) {
        set_name(name, inputs[i]);
        printf("name = %s\n", name);
    }
    return 0;
}
