/* Casts to void: a value, a call of a void function or of printf, discarded. */
#include <stdio.h>
typedef void V;
int g;
int bump(void) { return ++g; }
void hello(void) { puts("hello"); }
int main(void) {
    int unused = 3;
    (void)unused;
    (void)bump();
    (void)hello();
    (void)printf("x\n");
    (V)bump();
    for (int i = 0; i < 3; (void)i++) (void)(g += i);
    printf("%d\n", g);
    return 0;
}
