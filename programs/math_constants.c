/* Library math calls on constant arguments, which gcc evaluates at compile
   time (correctly rounded, with MPFR) even at -O0, next to the same calls on
   variables, which go to libm at run time. The two can differ in the last
   bit (log10(9.594628883361816) is the classic case), so the VM must fold
   exactly what gcc folds: literals, casts, arithmetic on constants and nested
   constant calls. Printed with %.17g to show every bit. */
#include <stdio.h>
#include <math.h>

double g = 9.594628883361816;

int main(void) {
    double v = 9.594628883361816;
    printf("log10 const %.17g\n", log10(9.594628883361816));
    printf("log10 var   %.17g\n", log10(v));
    printf("log10 glob  %.17g\n", log10(g));
    printf("log10 cast  %.17g\n", log10((double)(int)9 + 0.594628883361816));
    printf("log10 mul   %.17g\n", log10(9.594628883361816 * 1));
    printf("nested      %.17g\n", log10(sqrt(92.05690342523902)));
    double xs[6] = {0.1, 0.7, 1.3, 2.9, 10.5, 123.456};
    printf("sin  %.17g %.17g %.17g\n", sin(0.1), sin(1.3), sin(123.456));
    printf("sin  %.17g %.17g %.17g\n", sin(xs[0]), sin(xs[2]), sin(xs[5]));
    printf("cos  %.17g %.17g %.17g\n", cos(0.7), cos(2.9), cos(10.5));
    printf("cos  %.17g %.17g %.17g\n", cos(xs[1]), cos(xs[3]), cos(xs[4]));
    printf("tan  %.17g %.17g\n", tan(0.7), tan(xs[1]));
    printf("atan %.17g %.17g\n", atan(2.9), atan(xs[3]));
    printf("atan2 %.17g %.17g\n", atan2(1.3, -2.9), atan2(xs[2], -xs[3]));
    printf("exp  %.17g %.17g %.17g\n", exp(1.3), exp(-10.5), exp(xs[2]));
    printf("log  %.17g %.17g %.17g\n", log(2.9), log(123.456), log(xs[5]));
    printf("log10 %.17g %.17g\n", log10(123.456), log10(xs[5]));
    printf("pow  %.17g %.17g %.17g\n", pow(1.3, 2.9), pow(10.5, -0.7), pow(xs[2], xs[3]));
    printf("sqrt %.17g %.17g\n", sqrt(2.9), sqrt(xs[3]));
    printf("fmod %.17g %.17g\n", fmod(123.456, 0.7), fmod(xs[5], xs[1]));
    printf("floor/ceil %.17g %.17g %.17g %.17g\n", floor(-2.9), ceil(-2.9), floor(xs[3]), ceil(xs[3]));
    printf("fabs %.17g %.17g\n", fabs(-10.5), fabs(-xs[4]));
    /* integer arguments are converted to double before the call */
    printf("int args %.17g %.17g %.17g\n", sqrt(2), pow(2, 0.5), atan2(1, 3));
    return 0;
}
