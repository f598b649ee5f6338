/* Syntax corners: empty statements and blocks, loops with empty bodies,
   an if with an empty then-branch, every character escape (octal, hex,
   \a \b \f \v \r \? \" \' \\ \0), putchar of NUL and of values beyond a
   byte, %c of out-of-range ints, and main falling off its end (status 0). */
#include <stdio.h>

int g;

int main(void) {
    int n = 5, s = 0;
    ;
    {}
    for (int i = 0; i < 3; i++)
        ;
    while (n-- > 2)
        ;
    printf("n=%d\n", n);
    for (;;) {
        if (++s > 3) break;
    }
    char c1 = '\x41', c2 = '\101', c3 = '\a', c4 = '\b', c5 = '\f', c6 = '\v', c7 = '\r', c8 = '\?', c9 = '\"';
    char c10 = '\'', c11 = '\\', c12 = '\0', c13 = '\177', c14 = '\x7f';
    printf("%d %d %d %d %d %d %d %d %d\n", c1, c2, c3, c4, c5, c6, c7, c8, c9);
    printf("%d %d %d %d %d\n", c10, c11, c12, c13, c14);
    printf("esc:\a\b\f\v\r\?\x7e\176\"\'\\|\n");
    putchar('\0');
    putchar('\n');
    putchar(256 + 'A');
    putchar(-191);
    putchar('\n');
    printf("%c%c%c|%5c|%-5c|\n", 0x41, 256 + 0x42, -190, 'r', 'l');
    if (s) {
    } else {
        s = 0;
    }
    printf("s=%d g=%d\n", s, g);
}
