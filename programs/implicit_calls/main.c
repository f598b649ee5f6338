/* Old C: functions called with no declaration in scope and defined in another file (C89's
   implicit `int f();`). The arguments get the default argument promotions (char and short to
   int, float to double), which the definitions in util.c take. */
#include <stdio.h>

int main(void) {
    char c = 3;
    short s = -2;
    float f = 1.5f;
    unsigned char bytes[4] = {10, 20, 30, 40};
    int i, total = 0;
    for (i = 0; i < 4; i++) total += scale(bytes[i], f);
    printf("%d\n", combine(c, f, s, "abc"));
    printf("%d %d\n", total, twice(21));
    report(total, 2.5f);
    return 0;
}
