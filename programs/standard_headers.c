/* Every standard header the VM ships, included twice and in an odd order, with the macros
   programs use from them; a library macro redefined by the program (gcc warns, the later
   definition wins); `assert` that holds, and `assert` switched off by NDEBUG. */
#include <time.h>
#include <stdlib.h>
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <iso646.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <stdint.h>
#include <limits.h>
#define RAND_MAX 32767

static int square(int x) {
    assert(x >= 0 and x < 1000);
    return x * x;
}

#define NDEBUG
#include <assert.h>

int main(void) {
    int64_t big = INT64_C(1) << 40;
    uint8_t byte = UINT8_MAX;
    size_t n = sizeof(struct timeval) + sizeof(struct tm) + sizeof(jmp_buf);
    clock_t ticks = CLOCKS_PER_SEC;
    printf("%d %d %" PRId64 " %u\n", square(12), RAND_MAX, big, byte);
    printf("%g %g %g %g\n", DBL_MAX, DBL_MIN, FLT_EPSILON, DBL_EPSILON);
    printf("%d %d %d %d\n", FLT_DIG, DBL_MANT_DIG, FLT_MAX_EXP, DBL_MIN_10_EXP);
    printf("%d %ld %lld %d\n", INT_MAX, LONG_MIN, LLONG_MIN, CHAR_BIT);
    printf("%d %d %d %d %d\n", EOF, EXIT_FAILURE, SEEK_END, BUFSIZ, ERANGE);
    printf("%zu %ld %d %d\n", n, (long)ticks, SIGINT, STDERR_FILENO);
    printf("%f %f %d\n", HUGE_VAL, -INFINITY, NAN != NAN);
    printf("%d %d\n", true, (int)offsetof(struct tm, tm_year));
    assert(square(2) == 5);
    return 0;
}
