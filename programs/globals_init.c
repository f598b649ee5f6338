/* Global variables and arrays of every type with constant initializers
   (partial initializers zero-fill, sizes inferred from the initializer,
   constant expressions), const globals, and zero-initialized globals. */
#include <stdio.h>

int gi = 42;
int gneg = -17;
unsigned gu = 0xffffffffu;
long gl = -1234567890123456789L;
unsigned long gul = 12345678901234567890ul;
char gc = 'Z';
char gcneg = -100;
double gd = 3.14159265358979;
double gdexp = 1.5e-7;
const int gconst = 6 * 7 + (1 << 4) - 100 / 3 % 5;
int gzero;
double gdzero;
int garr[5] = {1, 2, 3};
int ginfer[] = {9, 8, 7, 6, 5, 4};
char gchars[8] = {'h', 'e', 'l', 'l', 'o', '!', '\n'};
double gdarr[4] = {0.5, -1.25, 1e10};
long glarr[3] = {-1L, 0x7fffffffffffffffL};
unsigned long gularr[2] = {18446744073709551615ul};
int gmat[3][4] = {{1, 2, 3, 4}, {5, 6}, {7}};
int gmat_flat[2][3] = {{1, 2, 3}, {4}};
double gcube[2][2][2] = {{{1.0, 2.0}, {3.0, 4.0}}, {{5.0}}};
int gbig[1000];
char gescapes[6] = {'\t', '\\', '\'', '"', '\0', 'A'};
int gconv_from_double = 7.9;
double gconv_from_int = 3;
char gconv_char = 65 + 1;
unsigned gconv_unsigned = -1;
long gexpr = (long)1 << 40;
int ghex = 0x7f + 010 + 'a';

void modify(void) {
    gi++;
    garr[4] = 55;
    gmat[2][3] = -1;
    gbig[999] = 999;
}

int main(void) {
    printf("gi=%d gneg=%d gu=%u gl=%ld gul=%lu\n", gi, gneg, gu, gl, gul);
    printf("gc=%c(%d) gcneg=%d gd=%.14f gdexp=%g\n", gc, gc, gcneg, gd, gdexp);
    printf("gconst=%d gzero=%d gdzero=%f\n", gconst, gzero, gdzero);
    for (int i = 0; i < 5; i++) printf("garr[%d]=%d ", i, garr[i]);
    printf("\n");
    for (int i = 0; i < 6; i++) printf("ginfer[%d]=%d ", i, ginfer[i]);
    printf("\n");
    for (int i = 0; i < 8; i++) printf("%d ", gchars[i]);
    printf("\n");
    for (int i = 0; i < 7; i++) putchar(gchars[i]);
    for (int i = 0; i < 4; i++) printf("gdarr[%d]=%g ", i, gdarr[i]);
    printf("\n");
    printf("glarr: %ld %ld %ld\n", glarr[0], glarr[1], glarr[2]);
    printf("gularr: %lu %lu\n", gularr[0], gularr[1]);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++) printf("%3d", gmat[i][j]);
        printf("\n");
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) printf("gmat_flat[%d][%d]=%d\n", i, j, gmat_flat[i][j]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) printf("cube %d%d%d = %.1f\n", i, j, k, gcube[i][j][k]);
    int s = 0;
    for (int i = 0; i < 1000; i++) s += gbig[i];
    printf("gbig sum = %d\n", s);
    for (int i = 0; i < 6; i++) printf("esc %d ", gescapes[i]);
    printf("\n");
    printf("conv: %d %.1f %c %u %ld %d\n", gconv_from_double, gconv_from_int, gconv_char, gconv_unsigned,
           gexpr, ghex);
    modify();
    modify();
    printf("after modify: gi=%d garr[4]=%d gmat[2][3]=%d gbig[999]=%d\n", gi, garr[4], gmat[2][3], gbig[999]);
    return 0;
}
