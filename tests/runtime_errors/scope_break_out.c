/* Runtime error: use after scope: a pointer into a block-scope array, kept when `break` leaves
   the block, used after it. */
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *words[] = {"alpha", "beta", "gamma", "delta"};
    char *found = NULL;
    for (int i = 0; i < 4; i++) {
        char upper[8];
        strcpy(upper, words[i]);
        upper[0] = (char)(upper[0] - 32);
        printf("%s\n", upper);
        if (strchr(upper, 'm') != NULL) {
            found = upper;
            break;
        }
    }
    printf("found %c\n", found[0]);
    return 0;
}
