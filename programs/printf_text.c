/* %s with string literals (width, precision, - flag), %c, puts, putchar,
   escape sequences in literals, printf's return value is not used. */
#include <stdio.h>

void banner(int n) {
    for (int i = 0; i < n; i++) putchar('=');
    putchar('\n');
}

int main(void) {
    puts("puts adds a newline");
    puts("");
    puts("tab\there, backslash \\, quote \", apostrophe \'");
    printf("[%s]\n", "plain");
    printf("[%10s] [%-10s] [%.3s] [%10.2s] [%-10.4s]|\n", "right", "left", "truncate", "ab", "abcdefg");
    printf("[%s%s%s]\n", "con", "cat", "enation");
    printf("[%s] [%5s]\n", "", "");
    printf("%s %d %s %c\n", "mixed", 42, "args", '!');
    banner(20);
    for (int c = 32; c < 127; c++) {
        putchar(c);
        if ((c - 31) % 32 == 0) putchar('\n');
    }
    putchar('\n');
    char word[5] = {'w', 'o', 'r', 'l', 'd'};
    printf("hello, ");
    for (int i = 0; i < 5; i++) putchar(word[i]);
    putchar(10);
    /* putchar returns its argument; printf of escapes */
    int r = putchar('X');
    printf(" returned %d\n", r);
    printf("escapes: \x41\102\n");
    printf("octal \060\061\062 done\n");
    printf("percent at end 100%%\n");
    printf("no conversions at all\n");
    puts("multi" "part" " literal");
    printf("adjacent " "literals %d\n", 2);
    banner(5);
    return 0;
}
