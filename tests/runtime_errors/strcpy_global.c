/* Runtime error: strcpy overflow into a global char array from a string built at run time. */
#include <stdio.h>
#include <string.h>

static char label[10];

int main(void) {
    char src[32];
    int n = 0;
    for (char c = 'a'; c < 'a' + 12; c++) src[n++] = c;
    src[n] = '\0';
    printf("source has %zu chars\n", strlen(src));
    strcpy(label, src);
    printf("label = %s\n", label);
    return 0;
}
