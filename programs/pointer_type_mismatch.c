/* Conversions gcc makes with only a warning: a pointer assigned, passed or returned as a
   pointer to another type, pointers to different types compared, and `?:` with arms
   pointing to different types (which gcc gives the type `void *`). */
#include <stdio.h>

static unsigned counters[4] = {1, 2, 3, 0xffffffffu};

static int *as_int(unsigned *p) {
    return p;
}

static int first(int *p) {
    return *p;
}

int main(void) {
    int *ip = counters;
    unsigned *up = &counters[3];
    short s[2] = {-1, 2};
    long l = 5;
    char *cp;
    void *either;
    printf("%d %d\n", ip[3], *as_int(up));
    printf("%d\n", first(up));
    printf("%d %d %d\n", ip == counters, up > ip, ip + 3 == up);
    cp = s;
    printf("%d %d\n", cp[0], cp[2]);
    either = l > 2 ? ip : (long *)&l;
    printf("%d\n", either == (void *)ip);
    either = l < 2 ? ip : (long *)&l;
    printf("%ld\n", *(long *)either);
    return 0;
}
