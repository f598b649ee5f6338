/* Case labels inside a loop inside their switch (Duff's device, and a while loop whose body holds the
   labels): the switch jumps into the middle of the loop, whose CFG is then irreducible. */
#include <stdio.h>
static void copy(int *to, const int *from, int count) {
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}
static int loopy(int k) {
    int s = 0, i = 0;
    switch (k) {
        while (i < 10) {
            case 1: s += i;
            case 2: s += 2 * i;
            default: i++;
        }
    }
    return s;
}
int main(void) {
    int a[100], b[100];
    for (int i = 0; i < 100; i++) a[i] = i * 3;
    for (int c = 0; c < 30; c++) {
        for (int i = 0; i < 100; i++) b[i] = -1;
        copy(b, a, c);
        int s = 0;
        for (int i = 0; i < 100; i++) s += b[i];
        printf("%d:%d ", c, s);
    }
    printf("\n%d %d %d\n", loopy(1), loopy(2), loopy(5));
    return 0;
}
