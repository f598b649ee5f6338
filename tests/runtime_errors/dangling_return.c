/* Runtime error: a pointer to a local variable is returned from a function and then read after the function returned. */
#include <stdio.h>

static int *latest;

static int *remember(int *p) {
    latest = p;
    return p;
}

static int *make_counter(int start) {
    int counter = start * 2;
    return remember(&counter);
}

int main(void) {
    printf("making a counter\n");
    int *c = make_counter(21);
    printf("counter is %d\n", *c);
    return 0;
}
