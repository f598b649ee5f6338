/* string.h library: strlen strcpy strncpy strcmp strncmp strcat strchr memcpy memmove memset memcmp, with edge cases (padding, overlap, unsigned compare, '\0' search). */
#include <stdio.h>
#include <string.h>

static int sgn(int v) { return (v > 0) - (v < 0); }

static void dump(const char *label, const char *buf, size_t n) {
    printf("%s:", label);
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\0') printf(" \\0");
        else printf(" %c", buf[i]);
    }
    printf("\n");
}

int main(void) {
    char buf[32];
    char *r = strcpy(buf, "alpha");
    printf("strcpy returns dest: %d, len %zu\n", r == buf, strlen(buf));
    r = strcat(buf, "-beta");
    strcat(strcat(buf, "-"), "gamma");
    printf("strcat: %s (%zu) returns dest %d\n", buf, strlen(buf), r == buf);

    char pad[8];
    memset(pad, '#', sizeof pad);
    strncpy(pad, "ab", 6);
    dump("strncpy pads", pad, 8);
    memset(pad, '#', sizeof pad);
    char src8[] = "abcdefgh";
    size_t four = strlen(src8) / 2;
    strncpy(pad, src8, four);
    dump("strncpy no nul", pad, 8);

    printf("strcmp signs: %d %d %d %d %d\n", sgn(strcmp("abc", "abd")), sgn(strcmp("abc", "abc")),
           sgn(strcmp("b", "abc")), sgn(strcmp("ab", "abc")), sgn(strcmp("", "a")));
    char hi[2] = {(char)0xe9, 0};
    printf("strcmp high byte vs 'z': %d (compares as unsigned char)\n", sgn(strcmp(hi, "z")));
    printf("strncmp: %d %d %d %d\n", sgn(strncmp("abcdef", "abcxyz", 3)), sgn(strncmp("abcdef", "abcxyz", 4)),
           sgn(strncmp("ab", "abc", 5)), sgn(strncmp("x", "y", 0)));

    const char *text = "find the needle in the haystack";
    const char *e = strchr(text, 'e');
    const char *z = strchr(text, 'z');
    const char *end = strchr(text, '\0');
    printf("strchr e at %ld, z null %d, nul at %ld (== strlen %zu)\n", (long)(e - text), z == NULL,
           (long)(end - text), strlen(text));
    int count = 0;
    for (const char *p = strchr(text, 'e'); p; p = strchr(p + 1, 'e')) count++;
    printf("e count %d\n", count);

    char mv[16] = "0123456789";
    memmove(mv + 2, mv, 6);
    printf("memmove right: %s\n", mv);
    strcpy(mv, "0123456789");
    memmove(mv, mv + 3, 7);
    printf("memmove left: %s\n", mv);
    memcpy(mv, "XY", 2);
    printf("memcpy: %s\n", mv);

    int nums[6] = {1, 2, 3, 4, 5, 6};
    int copy[6];
    memcpy(copy, nums, sizeof nums);
    memset(copy + 2, 0, 2 * sizeof(int));
    memmove(nums + 1, nums, 5 * sizeof(int));
    printf("ints: copy %d %d %d %d %d %d, nums %d %d %d %d %d %d\n", copy[0], copy[1], copy[2], copy[3], copy[4],
           copy[5], nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]);
    memset(copy, 0xff, sizeof copy);
    printf("memset 0xff int = %d\n", copy[3]);

    unsigned char a1[4] = {1, 2, 200, 4}, a2[4] = {1, 2, 100, 4};
    printf("memcmp: %d %d %d\n", sgn(memcmp(a1, a2, 4)), sgn(memcmp(a1, a2, 2)), sgn(memcmp(a2, a1, 3)));

    char big[64] = "";
    for (int i = 0; i < 5; i++) {
        char piece[8];
        strcpy(piece, "ab");
        piece[1] = (char)('0' + i);
        strcat(big, piece);
        strcat(big, i < 4 ? "," : ".");
    }
    printf("built %s len %zu\n", big, strlen(big));
    char *last = big;
    while (strchr(last, ',') != NULL) last = strchr(last, ',') + 1;
    printf("after last comma: %s\n", last);
    return (int)strlen(big) - 10;
}
