/* Runtime error: free of a pointer to a global array (static storage) stored in a table next to heap pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char fallback[16] = "default";

int main(void) {
    char *names[3];
    names[0] = malloc(8);
    strcpy(names[0], "alpha");
    names[1] = fallback;
    names[2] = malloc(8);
    strcpy(names[2], "gamma");
    for (int i = 0; i < 3; i++) printf("%s\n", names[i]);
    free(names[0]);
    free(names[2]);
    free(names[1]);
    printf("not reached\n");
    return 0;
}
