/* Arrays of characters initialized by string literals: sized by the string, exact, rows of a 2-D array, escapes. */
#include <stdio.h>
char greet[] = "hello";
unsigned char raw[8] = "\xff\x01" "ab";
static const char exact[3] = "abc";
char grid[3][4] = { "ab", "cde", { 'x' } };
signed char sc[] = { "\x80z" };
int main(void) {
    unsigned sum = 0;
    for (unsigned i = 0; i < sizeof greet; i++) sum = sum * 31 + (unsigned char)greet[i];
    for (int i = 0; i < 8; i++) sum += raw[i];
    for (int i = 0; i < 3; i++) { putchar(exact[i]); for (int j = 0; j < 4; j++) sum = sum * 7 + grid[i][j]; }
    char local[] = "local\tstring";
    for (unsigned i = 0; local[i]; i++) putchar(local[i]);
    printf("\n%u %zu %zu %d %d\n", sum, sizeof greet, sizeof local, sc[0], (int)sizeof sc);
    return 0;
}
