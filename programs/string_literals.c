/* String literals and char arrays: "abc"[i], sizeof "abc", adjacent concatenation, escapes, const char * vs char s[] modified in place, tables of string pointers. */
#include <stdio.h>
#include <string.h>

static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static char banner[] = "hello, world";
static const char *greeting = "greetings";

static char hexdigit(int v) { return "0123456789abcdef"[v & 15]; }

static void upcase(char *s) {
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z') *s = (char)(*s - 'a' + 'A');
}

static int count_char(const char *s, char c) {
    int n = 0;
    while (*s) n += *s++ == c;
    return n;
}

static const char *plural(int n) { return n == 1 ? "" : "s"; }

int main(void) {
    printf("\"abc\"[1]=%c sizeof \"abc\"=%zu sizeof \"\"=%zu strlen=%zu\n", "abc"[1], sizeof "abc", sizeof "",
           strlen("abc"));
    printf("concat: %s (size %zu)\n", "con" "cat" "enated", sizeof("con" "cat" "enated"));
    printf("escapes: [%s] len %zu, tab code %d, octal %d, hex %d\n", "a\tb\\c\"d\'e", strlen("a\tb\\c\"d\'e"),
           "\t"[0], "\101"[0], "\x7e"[0]);
    printf("embedded nul: sizeof %zu strlen %zu\n", sizeof "ab\0cd", strlen("ab\0cd"));

    char s[] = "mutable string";
    char *p = s;
    const char *lit = "mutable string";
    printf("sizeof s=%zu sizeof p=%zu sizeof lit=%zu\n", sizeof s, sizeof p, sizeof lit);
    s[0] = 'M';
    p[8] = 'S';
    upcase(s + 9);
    printf("s=\"%s\" lit=\"%s\" equal=%d\n", s, lit, strcmp(s, lit) == 0);
    s[7] = '\0';
    printf("truncated s=\"%s\" len %zu, tail \"%s\"\n", s, strlen(s), s + 8);

    upcase(banner);
    banner[5] = ';';
    printf("banner \"%s\" commas %d semicolons %d\n", banner, count_char(banner, ','), count_char(banner, ';'));
    greeting = greeting + 3;
    printf("greeting+3 \"%s\" first '%c'\n", greeting, *greeting);

    for (int m = 0; m < 12; m += 5) printf("%s%c", months[m], m + 5 < 12 ? ' ' : '\n');
    int total_len = 0;
    for (size_t m = 0; m < sizeof months / sizeof months[0]; m++) total_len += (int)strlen(months[m]);
    printf("months %zu total %d third letter of Sep '%c'\n", sizeof months / sizeof *months, total_len,
           months[8][2]);

    char hex[9];
    unsigned v = 0xC0FFEEu;
    for (int i = 7; i >= 0; i--) {
        hex[i] = hexdigit((int)(v & 15u));
        v >>= 4;
    }
    hex[8] = '\0';
    printf("hex %s\n", hex);

    char grid[3][6] = {"one", "two", "three"};
    grid[1][0] = 'T';
    printf("grid: %s %s %s sizeof %zu\n", grid[0], grid[1], grid[2], sizeof grid);
    char small[4] = "abcd"; /* exactly fills, no terminator */
    int sum = 0;
    for (int i = 0; i < 4; i++) sum += small[i];
    printf("small sum %d\n", sum);

    for (int n = 0; n < 3; n++) printf("%d file%s%s", n, plural(n), n < 2 ? ", " : "\n");
    const char *words[] = {"alpha", "beta", "gamma", NULL};
    int longest = 0;
    for (const char **w = words; *w; w++)
        if ((int)strlen(*w) > longest) longest = (int)strlen(*w);
    printf("longest %d, words[2]+1 = %s, *words[1] = %c\n", longest, words[2] + 1, *words[1]);
    return "status"[2] - 'a' + 1;
}
