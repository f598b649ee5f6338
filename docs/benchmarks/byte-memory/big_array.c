#include <stdio.h>
int a[10000000];
int main(void) {
    for (int i = 0; i < 10000000; i++) a[i] = i;
    long s = 0;
    for (int i = 0; i < 10000000; i++) s += a[i];
    printf("%ld\n", s);
    return 0;
}
