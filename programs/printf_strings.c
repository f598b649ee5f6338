/* printf/sprintf/snprintf with strings and chars: %s %c widths, precision, %-10s, %.*s, %*s, return values, snprintf truncation and size queries, puts and putchar. */
#include <stdio.h>
#include <string.h>

/* non-const globals, so gcc does not warn about the deliberate truncations below */
char long_text[] = "truncate me";
int big_number = 12345;
size_t one = 1;

int main(void) {
    const char *w = "pointer";
    printf("[%s] [%10s] [%-10s] [%.3s] [%5.2s] [%-5.2s] [%.0s]\n", w, w, w, w, w, w, w);
    printf("[%c] [%3c] [%-3c] [%c%c%c]\n", 'x', 'y', 'z', 65, 'a' + 1, '0' + 7);
    printf("[%*s] [%-*s] [%.*s] [%*.*s]\n", 6, "ab", 6, "ab", 2, "abcdef", 5, 3, "abcdef");
    printf("[%*d] [%-*d] width from negative arg: [%*s]\n", 4, 7, 4, 7, -6, "ab");
    printf("[%s] [%5s] [%-3s|] percent %% done\n", "", "", "");

    int n = printf("%s=%d\n", "eleven", 11);
    printf("printf returned %d\n", n);

    char buf[64];
    int len = sprintf(buf, "%s-%c-%04d-%.2f", "id", 'Q', 42, 3.14159);
    printf("sprintf wrote %d: %s (strlen %zu)\n", len, buf, strlen(buf));
    len = sprintf(buf + len, "+%x", 255u);
    printf("appended %d: %s\n", len, buf);

    char small[8];
    memset(small, '*', sizeof small);
    int want = snprintf(small, sizeof small, "%s", long_text);
    printf("snprintf wanted %d, got \"%s\" (strlen %zu)\n", want, small, strlen(small));
    want = snprintf(small, one, "%d", big_number);
    printf("size 1: wanted %d, got \"%s\"\n", want, small);
    memset(small, '*', sizeof small);
    want = snprintf(small, 0, "%d", big_number);
    printf("size 0: wanted %d, buffer untouched %d\n", want, small[0] == '*');
    want = snprintf(NULL, 0, "%s and %s", "this", "that");
    printf("size query %d\n", want);
    want = snprintf(small, sizeof small, "%7s", "abc");
    printf("exact fit %d \"%s\"\n", want, small);

    /* build a table into a buffer piece by piece, tracking the remaining space */
    char table[96];
    size_t used = 0;
    const char *names[] = {"ant", "beetle", "cicada", "dragonfly"};
    int legs[] = {6, 6, 6, 6};
    for (int i = 0; i < 4; i++) {
        int wrote = snprintf(table + used, sizeof table - used, "%-9s|%3d|%c\n", names[i], legs[i] * (i + 1),
                             names[i][0] - 32);
        if (wrote < 0 || (size_t)wrote >= sizeof table - used) {
            printf("table full at row %d\n", i);
            break;
        }
        used += (size_t)wrote;
    }
    printf("%s", table);
    printf("table used %zu bytes\n", used);

    char tiny[20];
    int full = snprintf(tiny, sizeof tiny * one, "%s/%s/%s", names[0], names[1], names[3]);
    printf("tiny wanted %d kept \"%s\"\n", full, tiny);

    puts("puts adds a newline");
    puts("");
    int c = putchar('O');
    putchar('K');
    putchar('\n');
    printf("putchar returned %d\n", c);
    for (const char *p = "chars\n"; *p; p++) putchar(*p);
    int r = puts("last line");
    return r >= 0 ? 3 : 4;
}
