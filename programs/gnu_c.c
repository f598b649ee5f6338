/* GNU C as real code writes it (issue 37): attribute lists wherever gcc accepts them, the
   alternate keywords, __extension__, __typeof__, __alignof__, __builtin_expect, case ranges,
   and the macros gcc predefines on x86-64
   Linux. gcc -std=c99 accepts all of it; the output must be gcc's. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define UNUSED __attribute__((__unused__))

typedef __INT64_TYPE__ my_int64;
typedef __SIZE_TYPE__ my_size;

struct __attribute__((__may_alias__)) point {
    int x __attribute__((unused));
    int y;
} __attribute__((deprecated));

static NOINLINE int twice(int v) { return 2 * v; }

static __inline__ int add(int a, int b) __attribute__((always_inline, hot));
static __inline__ int add(int a, int b) { return a + b; }

__attribute__((format_arg(1), unused)) static const char *pass(const char *format);
static const char *pass(const char *format) { return format; }

static void copy(int *__restrict__ dst, const int *__restrict src, int n) {
    int i;
    for (i = 0; i < n; i++)
        dst[i] = src[i];
}

/* GNU C's case ranges: dense (a jump table), sparse (compares), unsigned and long. */
static int classify(int c) {
    switch (c) {
    case '0' ... '9':
        return 1;
    case 'a' ... 'f':
    case 'A' ... 'F':
        return 2;
    case 'g' ... 'z':
        return 3;
    case ' ':
        return 4;
    default:
        return 0;
    }
}

static int sparse(long v) {
    switch (v) {
    case -1000000 ... -1000:
        return -2;
    case -5 ... 5:
        return 0;
    case 100:
        return 1;
    case 1000 ... 1000000000000L:
        return 2;
    }
    return 9;
}

static int unsigned_ranges(unsigned u) {
    switch (u) {
    case 0 ... 9:
        return 0;
    case 4000000000u ... 4294967295u:
        return 2;
    default:
        return 1;
    }
}

static int __attribute__((noreturn)) never_called(void);

int main(void) {
    __const int limit = 5;
    __signed__ char c = -3;
    __volatile__ int v = 7;
    UNUSED int spare = 0;
    long big = __extension__ 1L << 40;
    __typeof__(limit) same = limit + 1;
    __typeof__(big) copy_of_big = big;
    __typeof__(c + 1) promoted = c;
    __typeof__(struct point) p = {1, 2};
    __typeof__(int[3]) three = {1, 2, 3};
    int out[3];
    my_int64 wide = __INT64_C(1) << 62;
    my_size n = sizeof(my_int64);
    copy(out, three, 3);
    printf("%d %d %d %d\n", twice(limit), add(2, 3), c, v);
    printf("%ld %d %ld %d\n", big, same, copy_of_big, promoted);
    printf("%d %d %d %d %d\n", p.x, p.y, out[0], out[2], (int)sizeof(same));
    printf("%d %d\n", (int)sizeof(promoted), (int)sizeof(three));
    printf("%lld %lu\n", (long long)wide, (unsigned long)n);
#if defined(__x86_64__) && defined(__linux__) && defined(__LP64__) && __CHAR_BIT__ == 8
    printf("x86-64 Linux, LP64\n");
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    printf("little endian\n");
#endif
    printf("%d %d %d %d\n", __SIZEOF_INT__, __SIZEOF_LONG__, __SIZEOF_POINTER__, __SIZEOF_LONG_LONG__);
    printf("%d %ld %u\n", __INT_MAX__, __LONG_MAX__, __UINT32_MAX__);
    printf("%.17g %.9g %.17g\n", __DBL_MAX__, __FLT_EPSILON__, __DBL_EPSILON__);
    printf("%d %d\n", __DBL_MANT_DIG__, __FLT_DIG__);
    printf("%d %d %d %d %d\n", (int)__alignof__(double), (int)__alignof__(char),
           (int)__alignof__(struct point), (int)__alignof__ big, (int)_Alignof(short[3]));
    if (__builtin_expect(limit > 3, 1))
        printf("expected\n");
    printf("%ld\n", __builtin_expect(limit * 2L, 10) + 1);
    {
        const char *text = "Hex 7f, dec 42; Zz!";
        int i;
        unsigned sum = 0;
        long probes[] = {-2000000, -50000, -6, -5, 0, 5, 6, 100, 999, 1000, 123456789012L, 2000000000000L};
        unsigned uprobes[] = {0, 9, 10, 3999999999u, 4000000000u, 4294967295u};
        for (i = 0; text[i]; i++)
            sum = sum * 5 + classify(text[i]);
        printf("%u\n", sum);
        for (i = 0; i < 12; i++)
            printf("%d ", sparse(probes[i]));
        for (i = 0; i < 6; i++)
            printf("%d ", unsigned_ranges(uprobes[i]));
        printf("\n");
    }
    printf("%s", pass("done\n"));
    return 0;
}

static int never_called(void) {
    for (;;) {
    }
}
