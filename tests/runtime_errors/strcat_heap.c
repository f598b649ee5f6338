/* Runtime error: strcat overflow: appending words to a 16-byte heap buffer until it runs past the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *line = malloc(16);
    line[0] = '\0';
    const char *words[4] = {"one ", "two ", "three ", "four "};
    for (int i = 0; i < 4; i++) {
        strcat(line, words[i]);
        printf("line = '%s' (%zu)\n", line, strlen(line));
    }
    free(line);
    return 0;
}
