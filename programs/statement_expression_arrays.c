/* Statement expressions and compound literals whose statements use a local array through a
   pointer (the array needs its memory object even though only the inner statements take its
   address). */
#include <stdio.h>
#include <string.h>

struct pair {
    int a;
    const char *s;
};

int main(void) {
    char word[8] = "path";
    int counts[4] = {1, 2, 3, 4};
    long n = ({ long len = (long)strlen(word); len * 2; });
    int second = ({ int *p = counts + 1; *p; });
    struct pair pr = (struct pair){(int)strlen(word), strchr(word, 't')};
    int sum = ({ int t = 0, i; for (i = 0; i < 4; i++) t += counts[i]; t; });
    printf("%ld %d %d %s %d\n", n, second, pr.a, pr.s, sum);
    return 0;
}
