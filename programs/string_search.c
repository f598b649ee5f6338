/* The rest of <string.h>'s searching and appending: strrchr, strstr, memchr, strncat, on
   strings in arrays, string literals and the heap (a path split at its last '/', words found
   in a sentence, bytes found in a buffer with embedded NULs, bounded appends). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int count_occurrences(const char *text, const char *word) {
    int n = 0;
    const char *p = text;
    while ((p = strstr(p, word)) != NULL) {
        n++;
        p += strlen(word);
    }
    return n;
}

int main(void) {
    const char *paths[] = {"/usr/lib/libc.so", "relative/file.c", "plain", "/trailing/"};
    for (int i = 0; i < 4; i++) printf("[%s] ", base_name(paths[i]));
    printf("\n");
    char s[] = "the cat sat on the mat with the hat";
    printf("%d %d %d\n", count_occurrences(s, "the"), count_occurrences(s, "at"),
           count_occurrences(s, "dog"));
    printf("%s|%s|%d\n", strstr(s, "mat"), strstr(s, ""), strstr(s, "zz") == NULL);
    printf("%ld %d\n", (long)(strrchr(s, 0) - s), strrchr(s, 'q') == NULL);
    char buf[12] = {'a', 0, 'b', 'c', 0, 'd', 'x', 'e', 0, 'x', 'f', 0};
    char *x = memchr(buf, 'x', sizeof buf);
    printf("%ld %d %d\n", (long)(x - buf), memchr(buf, 'z', sizeof buf) == NULL,
           memchr(buf, 'x', 6) == NULL);
    char *h = malloc(20);
    strcpy(h, "ab");
    strncat(h, "cdefgh", 3);
    strncat(h, "XY", 10);
    strncat(h, "unused", 0);
    printf("%s %lu\n", h, (unsigned long)strlen(h));
    free(h);
    return 0;
}
