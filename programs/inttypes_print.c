/* <inttypes.h>: printf macros of the exact-width types. */
#include <stdio.h>
#include <inttypes.h>
int main(void) {
    int64_t a = -5; uint32_t b = 7; uint8_t c = 200; int_fast16_t d = 3; uintmax_t m = 9;
    printf("%" PRId64 " %" PRIu32 " %" PRIx8 " %" PRIdFAST16 " %" PRIuMAX " %08" PRIX64 "\n", a, b, c, d, m, (uint64_t)255);
    return 0;
}
