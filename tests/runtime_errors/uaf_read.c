/* Runtime error: use after free (read) through a second pointer to a freed heap buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void release(void *p) { free(p); }

static char first_char(const char *p) { return *p; }

int main(void) {
    char *name = malloc(16);
    strcpy(name, "temporary");
    const char *alias = name + 4;
    printf("name %s alias %s\n", name, alias);
    release(name);
    printf("alias first char %c\n", first_char(alias));
    return 0;
}
