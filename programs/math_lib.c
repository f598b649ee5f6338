/* Library functions: abs labs sqrt fabs floor ceil sin cos tan atan atan2
   exp log log10 pow fmod, with implicit argument conversions. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
    int iv[5] = {0, 5, -5, 2147483647, -2147483647};
    for (int k = 0; k < 5; k++) printf("abs(%d) = %d\n", iv[k], abs(iv[k]));
    long lv[3] = {-9223372036854775807L, 12L, -12L};
    for (int k = 0; k < 3; k++) printf("labs(%ld) = %ld\n", lv[k], labs(lv[k]));
    printf("abs(char -7) = %d, labs(int -8) = %ld\n", abs((char)-7), labs(-8));

    double xs[9] = {0.0, 0.5, 1.0, 2.0, -1.5, 3.75, 10.0, 100.5, -0.25};
    for (int k = 0; k < 9; k++) {
        double x = xs[k];
        printf("x=%g fabs=%g floor=%g ceil=%g sin=%.12f cos=%.12f atan=%.12f exp=%.10g\n", x, fabs(x),
               floor(x), ceil(x), sin(x), cos(x), atan(x), exp(x));
        if (x > 0) printf("  sqrt=%.15g log=%.15g log10=%.15g\n", sqrt(x), log(x), log10(x));
        if (fabs(cos(x)) > 0.01) printf("  tan=%.12f\n", tan(x));
    }
    for (int a = -2; a <= 2; a++)
        for (int b = -2; b <= 2; b++) printf("atan2(%d,%d)=%.10f\n", a, b, atan2(a, b));
    printf("pow: %g %g %g %g %g %.15g\n", pow(2, 10), pow(2.0, -2), pow(9, 0.5), pow(-2, 3), pow(0, 0), pow(1.0001, 10000));
    printf("fmod: %g %g %g %g %g\n", fmod(10, 3), fmod(-10, 3), fmod(10.5, -3), fmod(0.3, 0.1), fmod(-7.25, 2));
    printf("floor/ceil negative: %g %g %g %g\n", floor(-2.5), ceil(-2.5), floor(-0.5), ceil(-0.5));
    printf("sqrt(2) = %.17g\n", sqrt(2));
    printf("exp(1) = %.17g\n", exp(1));
    printf("log10(1000) = %.17g\n", log10(1000));
    double pi = 4.0 * atan(1.0);
    printf("pi = %.17g\n", pi);
    for (int deg = 0; deg <= 360; deg += 45) {
        double r = deg * pi / 180.0;
        printf("%3d deg: sin %+.6f cos %+.6f\n", deg, sin(r), cos(r));
    }
    /* integer results from math through casts */
    int n = (int)floor(sqrt(1000000.0) + 0.5);
    long ln = (long)pow(3, 30);
    printf("n=%d ln=%ld\n", n, ln);
    /* newton iteration vs sqrt */
    double y = 10.0;
    for (int it = 0; it < 6; it++) {
        y = 0.5 * (y + 2.0 / y);
        printf("newton %d: %.17g diff %.3e\n", it, y, fabs(y - sqrt(2.0)));
    }
    return 0;
}
