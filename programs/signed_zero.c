/* The sign of zero through arithmetic, conversions, library calls and
   printing (%f %e %g with + and space flags), including gcc's folding of
   `0.0 - x` into `-x` when x is converted from an integer (gcc -O0 then
   prints -0.0 for x == 0, where IEEE subtraction would give +0.0). */
#include <stdio.h>
#include <math.h>

double g;

int main(void) {
    double pz = 0.0, nz = -0.0;
    int zi = 0;
    unsigned zu = 0;
    long zl = 0;
    char zc = 0;
    printf("literals: %+.1f %+.1f %g %g\n", pz, nz, pz, nz);
    printf("add: %+.1f %+.1f %+.1f %+.1f\n", pz + pz, pz + nz, nz + pz, nz + nz);
    printf("sub: %+.1f %+.1f %+.1f %+.1f\n", pz - pz, pz - nz, nz - pz, nz - nz);
    printf("mul: %+.1f %+.1f %+.1f\n", pz * -1.0, nz * nz, nz * 5.0);
    printf("div: %+.1f %+.1f\n", nz / 4.0, pz / -4.0);
    printf("neg: %+.1f %+.1f\n", -pz, -nz);
    printf("compare: %d %d %d\n", pz == nz, pz < nz, nz < pz);
    printf("conversions: %d %ld %+.1f %+.1f\n", (int)nz, (long)nz, (double)zi, (double)-zi);
    printf("lib: %+.1f %+.1f %+.1f %+.1f %+.1f\n", fabs(nz), sqrt(nz), floor(nz), ceil(-0.5), fmod(nz, 3.0));
    printf("lib: %+.1f %+.1f %+.1f\n", sin(nz), atan(nz), pow(nz, 3.0));
    printf("formats: [%e] [% e] [%+g] [% f] [%08.2f] [%G]\n", nz, nz, nz, nz, nz, nz);
    /* gcc folds 0.0 - x into -x when x comes from an integer */
    printf("0.0 - int:      %+.1f\n", 0.0 - zi);
    printf("0.0 - unsigned: %+.1f\n", 0.0 - zu);
    printf("0.0 - long:     %+.1f\n", 0.0 - zl);
    printf("0.0 - char:     %+.1f\n", 0.0 - zc);
    printf("0.0 - (zi+zi):  %+.1f\n", 0.0 - (zi + zi));
    printf("0 - (double)zi: %+.1f\n", 0 - (double)zi);
    g = -(-0.0) - zi;
    printf("-(-0.0) - int:  %+.1f\n", g);
    /* not folded: the right operand may be -0.0, or the left is not a constant */
    printf("0.0 - double:   %+.1f\n", 0.0 - pz);
    printf("pz - int:       %+.1f\n", pz - zi);
    printf("0.0 + int:      %+.1f\n", 0.0 + zi);
    printf("-0.0 - int:     %+.1f\n", -0.0 - zi);
    printf("int - 0.0:      %+.1f\n", zi - 0.0);
    /* a conditional whose arms cannot be -0.0 (an integer, a constant other than -0.0) is folded */
    printf("0 - (c ? int : 1.5):   %+.1f\n", 0 - (zi == 0 ? zi : 1.5));
    printf("0 - (c ? int : const): %+.1f\n", 0 - (zi == 0 ? zc : (float)-9.71e-4));
    printf("0 - (c ? dbl : 1.5):   %+.1f\n", 0 - (zi == 0 ? pz : 1.5));
    printf("0 - (c ? int : -0.0):  %+.1f\n", 0 - (zi == 0 ? zi : -0.0));
    return 0;
}
