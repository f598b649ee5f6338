/* FFT over an array of complex structs: by-value complex helpers, iterative radix-2 transform with bit reversal, spectrum peaks, inverse round trip, big-number multiply by convolution. */
#include <stdio.h>
#include <math.h>
#include <string.h>

typedef struct {
    double re, im;
} cplx;

static const double PI = 3.14159265358979323846;

static cplx c_add(cplx a, cplx b) { return (cplx){a.re + b.re, a.im + b.im}; }
static cplx c_sub(cplx a, cplx b) { return (cplx){a.re - b.re, a.im - b.im}; }
static cplx c_mul(cplx a, cplx b) { return (cplx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static double c_abs(cplx a) { return sqrt(a.re * a.re + a.im * a.im); }

static void fft(cplx *a, int n, int inverse) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = 2 * PI / len * (inverse ? 1 : -1);
        cplx wlen = {cos(ang), sin(ang)};
        for (int i = 0; i < n; i += len) {
            cplx w = {1.0, 0.0};
            cplx *lo = a + i, *hi = a + i + len / 2;
            for (int k = 0; k < len / 2; k++) {
                cplx u = lo[k], v = c_mul(hi[k], w);
                lo[k] = c_add(u, v);
                hi[k] = c_sub(u, v);
                w = c_mul(w, wlen);
            }
        }
    }
    if (inverse)
        for (cplx *p = a; p < a + n; p++) {
            p->re /= n;
            p->im /= n;
        }
}

/* multiplies decimal strings by convolving their digit sequences */
static void big_multiply(const char *x, const char *y, char *out) {
    static cplx fa[64], fb[64];
    int lx = (int)strlen(x), ly = (int)strlen(y), n = 1;
    while (n < lx + ly) n <<= 1;
    for (int i = 0; i < n; i++) {
        fa[i] = (cplx){i < lx ? x[lx - 1 - i] - '0' : 0, 0};
        fb[i] = (cplx){i < ly ? y[ly - 1 - i] - '0' : 0, 0};
    }
    fft(fa, n, 0);
    fft(fb, n, 0);
    for (int i = 0; i < n; i++) fa[i] = c_mul(fa[i], fb[i]);
    fft(fa, n, 1);
    int digits[64];
    long carry = 0;
    for (int i = 0; i < n; i++) {
        long v = (long)floor(fa[i].re + 0.5) + carry;
        digits[i] = (int)(v % 10);
        carry = v / 10;
    }
    int top = n - 1;
    while (top > 0 && digits[top] == 0) top--;
    char *o = out;
    for (int i = top; i >= 0; i--) *o++ = (char)('0' + digits[i]);
    *o = '\0';
}

int main(void) {
    enum { N = 64 };
    cplx sig[N], orig[N];
    for (int i = 0; i < N; i++) {
        double t = 2 * PI * i / N;
        sig[i] = (cplx){0.5 + 3 * cos(5 * t) + 1.5 * sin(12 * t), 0.0};
        orig[i] = sig[i];
    }
    fft(sig, N, 0);
    double energy = 0;
    for (int k = 0; k < N; k++) {
        double m = c_abs(sig[k]);
        energy += m * m;
        if (m > 1e-6) printf("bin %2d magnitude %8.4f\n", k, m);
    }
    printf("energy/N %.4f\n", energy / N);
    fft(sig, N, 1);
    double err = 0;
    for (int i = 0; i < N; i++) {
        double e = c_abs(c_sub(sig[i], orig[i]));
        if (e > err) err = e;
    }
    printf("inverse round trip error below 1e-12: %d\n", err < 1e-12);

    char prod[80];
    big_multiply("123456789", "987654321", prod);
    printf("123456789 * 987654321 = %s\n", prod);
    big_multiply("99999999999999999999", "99999999999999999999", prod);
    printf("(10^20-1)^2 = %s\n", prod);
    big_multiply("31415926535897932384", "27182818284590452353", prod);
    printf("pi*e digits = %s\n", prod);
    return (int)strlen(prod) - 30;
}
