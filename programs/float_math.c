/* The float functions of math.h: float arguments (ints and doubles are converted), float
   results computed by glibc's float functions at run time, and calls with constant arguments
   folded at compile time as gcc does. Printed with enough digits to show every bit. */
#include <stdio.h>
#include <math.h>

float g_sin = 0.5f * 3;
float table[8];

int main(void) {
    float x = 0.7f;
    float y = -2.25f;
    float acc = 0;
    double d = 0.3;
    int i;

    printf("run %.9g %.9g %.9g %.9g\n", sinf(x), cosf(x), tanf(x), atanf(y));
    printf("run %.9g %.9g %.9g %.9g\n", expf(x), logf(x), log10f(x * 100), sqrtf(x));
    printf("run %.9g %.9g %.9g %.9g\n", fabsf(y), floorf(y), ceilf(y), fmodf(7.5f, y));
    printf("run %.9g %.9g\n", atan2f(y, x), powf(x, y));
    printf("args %.9g %.9g %.9g\n", sinf(1), cosf(d), sqrtf(2));
    printf("const %.9g %.9g %.9g %.9g\n", sinf(0.7f), expf(1.0f), logf(10.0f), powf(1.1f, 2.5f));
    printf("const %.9g %.9g %.9g\n", atan2f(1.0f, 3.0f), log10f(2.0f), tanf(1.5f));
    printf("special %d %g %g %g\n", sqrtf(-1.0f) != sqrtf(-1.0f), logf(0.0f), expf(100.0f), powf(0.0f, -1.0f));
    printf("tiny %g %g\n", expf(-100.0f), expf(-90.0f));
    for (i = 0; i < 8; i++) {
        table[i] = sinf(i * 0.4f) + cosf(i * 0.3f) * expf(-i * 0.1f);
        acc += table[i];
    }
    printf("table %.9g %.9g %.9g\n", table[3], table[7], acc);
    acc = 1;
    for (i = 1; i < 20; i++) acc = acc * powf(1.01f, i) / (1 + logf(i));
    printf("product %.9g\n", acc);
    printf("vs double %.17g %.17g\n", sinf(0.1f), sin(0.1f));
    printf("g %g\n", g_sin);
    return 0;
}
