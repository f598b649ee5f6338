/* Variadic functions with <stdarg.h>: va_arg of every promoted type, va_copy, a pointer to a variadic function, a call with no further arguments. */
#include <stdio.h>
#include <stdarg.h>
static long sum(int n, ...) {
    va_list ap; long s = 0; int i;
    va_start(ap, n);
    for (i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}
static double avg(const char *label, int n, ...) {
    va_list ap, copy; double s = 0; int i;
    va_start(ap, n);
    va_copy(copy, ap);
    for (i = 0; i < n; i++) s += va_arg(ap, double);
    printf("%s first %g\n", label, va_arg(copy, double));
    va_end(copy);
    va_end(ap);
    return s / n;
}
static void mixed(const char *fmt, ...) {
    va_list ap; const char *p;
    va_start(ap, fmt);
    for (p = fmt; *p; p++) {
        switch (*p) {
        case 'i': printf("int %d\n", va_arg(ap, int)); break;
        case 'u': printf("unsigned %u\n", va_arg(ap, unsigned)); break;
        case 'l': printf("long %ld\n", va_arg(ap, long)); break;
        case 'd': printf("double %f\n", va_arg(ap, double)); break;
        case 's': printf("string %s\n", va_arg(ap, char *)); break;
        case 'c': printf("char %c\n", va_arg(ap, int)); break;
        }
    }
    va_end(ap);
}
int (*fp)(const char *, ...);
static int count(const char *tag, ...) { va_list ap; int n = 0; va_start(ap, tag); while (va_arg(ap, int) != 0) n++; va_end(ap); return n; }
int main(void) {
    char c = 'x'; short sh = -3; float f = 1.5f; unsigned char uc = 200;
    printf("%ld\n", sum(5, 1, 2, 3, 4, 5));
    printf("%ld\n", sum(3, c, sh, uc));
    printf("%g\n", avg("avg", 3, 1.0, 2.5, f));
    mixed("iuldsc", -7, 4000000000u, -1234567890123L, 3.25, "hello", 'q');
    fp = count;
    printf("%d\n", fp("t", 1, 2, 3, 0));
    printf("%ld\n", sum(0));
    return 0;
}
