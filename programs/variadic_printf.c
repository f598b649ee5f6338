/* vprintf, vsprintf and vsnprintf: printf forms that take a va_list, called from the program's own variadic functions (formats read at run time). */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
static int log_count;
static int logf_(const char *fmt, ...) {
    va_list ap; int n;
    va_start(ap, fmt);
    printf("[%d] ", ++log_count);
    n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}
static char *format_into(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}
static int to_buffer(char *buf, const char *fmt, ...) {
    va_list ap; int n;
    va_start(ap, fmt);
    n = vsprintf(buf, fmt, ap);
    va_end(ap);
    return n;
}
int main(void) {
    char small[8], big[128];
    int n = logf_("%d %s %5.2f %c %lu %x %-6s| %.*s %%\n", -42, "path", 3.14159, 'z', 123456789012UL, 255u, "ab", 3, "profiler");
    printf("n=%d\n", n);
    printf("%s|\n", format_into(small, sizeof small, "%d-%d-%d", 1000, 2000, 3000));
    n = to_buffer(big, "%08.3e %+d %p", 12345.678, 7, (void *)0);
    printf("%s (%d, %d)\n", big, n, (int)strlen(big));
    logf_("no arguments\n");
    return 0;
}
