/* <ctype.h>'s classifiers and case mappings on every value of unsigned char and EOF, as
   glibc's C locale answers them (its masks: isdigit('5') is 2048), and a word scanner. */
#include <ctype.h>
#include <stdio.h>

static int count_words(const char *s) {
    int words = 0, in_word = 0;
    for (; *s; s++) {
        if (isalnum((unsigned char)*s) || *s == '_') {
            words += !in_word;
            in_word = 1;
        } else {
            in_word = 0;
        }
    }
    return words;
}

int main(void) {
    int c;
    const char *text = "Hello, World! 42 x_1\tEnd.";
    char upper[32];
    int i;
    for (c = -1; c < 256; c++)
        printf("%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", c, isalnum(c), isalpha(c),
               isblank(c), iscntrl(c), isdigit(c), isgraph(c), islower(c), isprint(c),
               ispunct(c), isspace(c), isupper(c), isxdigit(c), tolower(c), toupper(c));
    for (i = 0; text[i]; i++)
        upper[i] = (char)toupper((unsigned char)text[i]);
    upper[i] = '\0';
    printf("%s: %d words\n", upper, count_words(text));
    return 0;
}
