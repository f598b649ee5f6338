/* printf floating conversions f F e E g G: flags, width, precision,
   rounding, %g's choice between styles and trailing-zero removal, # flag,
   infinities, negative zero, very large and very small magnitudes. */
#include <stdio.h>
#include <math.h>

int main(void) {
    double vals[16] = {0.0, 1.0, -1.0, 0.5, 2.5, 3.14159265358979, -2.71828182845905, 100.0,
                       123456.789, 1234567.0, 0.0001, 0.00001234, 1e-10, 6.02214076e23, 9.9999995, 1e15};
    for (int k = 0; k < 16; k++) {
        double v = vals[k];
        printf("[%f] [%.0f] [%.1f] [%.10f] [%12.3f] [%-12.3f] [%+f] [% f] [%012.4f] [%#.0f]|\n",
               v, v, v, v, v, v, v, v, v, v);
        printf("[%e] [%.0e] [%.2e] [%E] [%15.4e] [%-15.4E] [%+e] [%#.0e] [%012.3e]|\n", v, v, v, v, v, v, v, v, v);
        printf("[%g] [%.0g] [%.1g] [%.3g] [%.10g] [%G] [%12g] [%-12g] [%+g] [%#g] [%#.3g] [%012g]|\n",
               v, v, v, v, v, v, v, v, v, v, v, v);
        printf("[%F] [%.2F] [%lf] [%le] [%lg]\n", v, v, v, v, v);
    }
    /* rounding: round-half-even on exact binary ties, correct rounding otherwise */
    double ties[10] = {0.125, 0.375, 2.5, 3.5, 0.5, 1.5, 1.005, 2.675, 1e-5, 5e-5};
    for (int k = 0; k < 10; k++)
        printf("%.2f %.0f %.1e %.1g %.17g\n", ties[k], ties[k], ties[k], ties[k], ties[k]);
    /* %g switches to exponent style when exp < -4 or exp >= precision */
    double g = 1.0;
    for (int k = 0; k < 20; k++) {
        printf("%g %G %.3g %#.3g\n", g, g, g, g);
        g = g * 10.0 + 0.5;
    }
    g = 1.0;
    for (int k = 0; k < 10; k++) {
        printf("%g %.2g %e\n", g, g, g);
        g = g / 7.0;
    }
    /* values that round up to the next power of ten */
    printf("%g %g %.3g %.2e %.0f %.1f\n", 999999.5, 9.9999996, 0.0009995, 9.995, 0.5, 0.05);
    printf("%g %g %g\n", 99999.95, 999999.4, 0.000099999);
    /* infinities and negative zero */
    double inf = exp(1000.0);
    double negzero = -0.0 * 1.0;
    printf("[%f] [%e] [%g] [%F] [%E] [%G] [%10f] [%-10f]| [%+f]\n", inf, inf, inf, inf, inf, inf, inf, inf, inf);
    printf("[%f] [%e] [%g] [%010f]\n", -inf, -inf, -inf, -inf);
    printf("[%f] [%e] [%g] [%.3f] [%+g]\n", negzero, negzero, negzero, negzero, negzero);
    printf("log(0) = %f\n", log(0.0));
    /* extremes */
    double tiny = 1.0;
    for (int k = 0; k < 1074; k++) tiny = tiny / 2.0;
    printf("min subnormal: %g %e %.20e\n", tiny, tiny, tiny);
    double huge = 1.0;
    for (int k = 0; k < 1023; k++) huge = huge * 2.0;
    huge = huge * 1.9999999999999998;
    printf("max: %g %e\n", huge, huge);
    printf("max %%f: %f\n", huge);
    printf("2^70 %%f: %f\n", pow(2.0, 70.0));
    printf("1/3 %%.30f: %.30f\n", 1.0 / 3.0);
    printf("0.1 %%.25f: %.25f\n", 0.1);
    printf("%.60f\n", 1e-50);
    printf("[%5.1f] [%-8.2e] [%08.2f] [%+08.2f] [% 08.2f]|\n", -0.05, -0.00015, -3.14159, 3.14159, 3.14159);
    return 0;
}
