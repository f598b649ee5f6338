/* Memory leak at exit (not a trap): of three malloc'd strings only two are freed; the returned copy in the loop leaks once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy(const char *s) {
    char *d = malloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

int main(void) {
    const char *words[3] = {"keep", "lose", "drop"};
    for (int i = 0; i < 3; i++) {
        char *c = copy(words[i]);
        printf("%d: %s\n", i, c);
        if (i != 1) free(c);
    }
    return 0;
}
