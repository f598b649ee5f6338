/* Runtime error: null pointer dereference (write) through an out-parameter the caller passed as NULL. */
#include <stdio.h>

static int divide(int a, int b, int *rem) {
    *rem = a % b;
    return a / b;
}

int main(void) {
    int r;
    int q = divide(17, 5, &r);
    printf("17/5 = %d rem %d\n", q, r);
    int *no_rem = NULL;
    q = divide(9, 2, no_rem);
    printf("not reached %d\n", q);
    return 0;
}
