/* printf integer conversions d i u x X o c with every flag (- + space 0 #),
   width, precision, and the length modifiers h, l and ll. */
#include <stdio.h>

int main(void) {
    int vals[7] = {0, 1, -1, 42, -42, 2147483647, -2147483647 - 1};
    for (int k = 0; k < 7; k++) {
        int v = vals[k];
        printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%+5d] [%-+6d]|\n", v, v, v, v, v, v, v, v, v);
        printf("[%.3d] [%8.3d] [%-8.3d] [%.0d] [%+.2d] [% 07d]\n", v, v, v, v, v, v);
        printf("[%u] [%x] [%X] [%o] [%#x] [%#X] [%#o] [%#10x] [%-#10o]|\n", (unsigned)v, (unsigned)v,
               (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v);
        printf("[%hd] [%hu] [%hx] [%hi] [%ho]\n", v, (unsigned)v, (unsigned)v, v, (unsigned)v);
        printf("[%.5x] [%#.5x] [%08x] [%#08x] [%.0x] [%#.0o] [%#o]\n", (unsigned)v, (unsigned)v, (unsigned)v,
               (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v);
    }
    long lv[5] = {0L, 9223372036854775807L, -9223372036854775807L - 1, 1234567890123L, -77L};
    for (int k = 0; k < 5; k++) {
        long v = lv[k];
        printf("[%ld] [%li] [%25ld] [%-25ld]| [%+ld] [% ld] [%025ld] [%.20ld]\n", v, v, v, v, v, v, v, v);
        printf("[%lu] [%lx] [%lX] [%lo] [%#lx] [%#lo] [%30lu]\n", (unsigned long)v, (unsigned long)v,
               (unsigned long)v, (unsigned long)v, (unsigned long)v, (unsigned long)v, (unsigned long)v);
    }
    unsigned uv[4] = {0u, 7u, 4294967295u, 2147483648u};
    for (int k = 0; k < 4; k++) {
        unsigned v = uv[k];
        printf("[%u] [%10u] [%-10u] [%010u] [%.12u] [%x] [%#X] [%o]|\n", v, v, v, v, v, v, v, v);
    }
    unsigned long ulv = 18446744073709551615ul;
    printf("[%lu] [%lx] [%#lX] [%lo] [%#lo]\n", ulv, ulv, ulv, ulv, ulv);
    /* characters */
    for (int c = 'A'; c < 'A' + 5; c++) printf("[%c] [%3c] [%-3c]|", c, c, c);
    printf("\n");
    char ch = 'q';
    printf("[%c] [%d] [%5c] [%c%c%c]\n", ch, ch, ch, 'x', 'y', 'z');
    /* flags combined and repeated */
    printf("[%-+8d] [%+-8d] [% -8d] [%- 8d]|\n", 17, 17, 17, 17);
    printf("[%+05d] [% 05d] [%+-5d]|\n", 3, 3, 3);
    printf("[%-#8x] [%-#8o] [%#08o]|\n", 255u, 8u, 8u);
    /* %% and literal text */
    printf("100%% done, %d%% left %%d\n", 0);
    return 0;
}
