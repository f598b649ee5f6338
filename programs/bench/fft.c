/*
 * fft.c - benchmark: iterative radix-2 complex fast Fourier transform.
 *
 * Algorithm: the in-place Cooley-Tukey decimation-in-time FFT on separate
 * arrays of real and imaginary parts: a bit-reversal permutation (the
 * reversed index is built bit by bit), then log2(n) stages of butterflies
 * whose twiddle factors come from a table of cos/sin values built for each
 * size.  The inverse transform uses conjugate twiddles and scales by 1/n.
 * Checks on every transform: the round trip (inverse of forward) must give
 * back the input, and Parseval's identity sum |x|^2 = (1/n) sum |X|^2 must
 * hold; for the smallest size the FFT is also compared with a direct
 * O(n^2) DFT.  For the sum-of-sines signal the strongest bins of the
 * spectrum are found and printed.  Sizes 64 to 4096, four kinds of signal
 * (random noise from a fixed-seed LCG, a sum of sines, an impulse train, a
 * square wave), each transformed repeatedly.
 *
 * Control flow for path profiling:
 *   - the butterfly nest is three loops deep (stage, block, butterfly)
 *     with trip counts that trade off against each other from stage to
 *     stage (many short blocks, then few long ones);
 *   - the bit-reversal loop has an inner loop over the bits and a swap
 *     branch (j > i) taken for about half the indices in a fixed pattern;
 *   - a switch on the signal kind in the fill loop, a direction flag tested
 *     in the transform, and the peak search's data-dependent branch;
 *   - reverse_bits, a short fixed-trip loop, is called once per index (a
 *     call in a loop); the signature and error passes are single loops.
 *
 * Loop-heavy: yes (nearly all time in the butterfly and permutation loops).
 */
#include <stdio.h>
#include <math.h>

double re[4096], im[4096];
double orig_re[4096], orig_im[4096];
double tw_cos[2048], tw_sin[2048];
double dft_re[64], dft_im[64];

unsigned rng_state = 88172645u;

unsigned next_random(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 1;
}

const double PI = 3.14159265358979323846;

/* cos/sin of 2*pi*k/n for k < n/2: the twiddle factors of size n. */
void build_twiddles(int n) {
    for (int k = 0; k < n / 2; k++) {
        double angle = 2.0 * PI * (double)k / (double)n;
        tw_cos[k] = cos(angle);
        tw_sin[k] = sin(angle);
    }
}

/* Reverses the low `bits` bits of index. */
int reverse_bits(int index, int bits) {
    int reversed = 0;
    for (int b = 0; b < bits; b++) {
        reversed = (reversed << 1) | (index & 1);
        index >>= 1;
    }
    return reversed;
}

void bit_reverse_permute(int n, int bits) {
    for (int i = 0; i < n; i++) {
        int j = reverse_bits(i, bits);
        if (j > i) {
            double t = re[i];
            re[i] = re[j];
            re[j] = t;
            t = im[i];
            im[i] = im[j];
            im[j] = t;
        }
    }
}

/* In-place transform of re/im of size n = 2^bits; inverse when
   inverse != 0 (conjugate twiddles, result scaled by 1/n). */
void fft(int n, int bits, int inverse) {
    bit_reverse_permute(n, bits);
    for (int half = 1; half < n; half *= 2) {
        int step = n / (2 * half); /* twiddle index stride at this stage */
        for (int start = 0; start < n; start += 2 * half) {
            for (int k = 0; k < half; k++) {
                double wr = tw_cos[k * step];
                double wi = inverse ? tw_sin[k * step] : -tw_sin[k * step];
                int top = start + k;
                int bottom = top + half;
                double xr = re[bottom] * wr - im[bottom] * wi;
                double xi = re[bottom] * wi + im[bottom] * wr;
                re[bottom] = re[top] - xr;
                im[bottom] = im[top] - xi;
                re[top] += xr;
                im[top] += xi;
            }
        }
    }
    if (inverse) {
        double scale = 1.0 / (double)n;
        for (int i = 0; i < n; i++) {
            re[i] *= scale;
            im[i] *= scale;
        }
    }
}

/* Fills the input with a signal of the given kind. */
void fill_signal(int n, int kind) {
    for (int i = 0; i < n; i++) {
        double t = (double)i / (double)n;
        switch (kind) {
        case 0: /* uniform noise in [-1, 1) */
            re[i] = (double)(next_random() >> 7) / 8388608.0 - 1.0;
            im[i] = (double)(next_random() >> 7) / 8388608.0 - 1.0;
            break;
        case 1: /* three sines: bins 3, 11 and n/4 + 1 */
            re[i] = sin(2.0 * PI * 3.0 * t) + 0.5 * sin(2.0 * PI * 11.0 * t) +
                    0.25 * cos(2.0 * PI * (double)(n / 4 + 1) * t);
            im[i] = 0.0;
            break;
        case 2: /* impulse train, period 16 */
            re[i] = (i % 16 == 0) ? 1.0 : 0.0;
            im[i] = 0.0;
            break;
        default: /* square wave with 8 periods */
            re[i] = ((i * 16 / n) % 2 == 0) ? 1.0 : -1.0;
            im[i] = 0.5;
            break;
        }
        orig_re[i] = re[i];
        orig_im[i] = im[i];
    }
}

double energy(int n) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += re[i] * re[i] + im[i] * im[i];
    return sum;
}

/* A weighted sum of the bin magnitudes, as a signature of the spectrum. */
double spectrum_signature(int n) {
    double sum = 0.0;
    for (int k = 0; k < n; k++)
        sum += sqrt(re[k] * re[k] + im[k] * im[k]) * (double)(k % 7 + 1);
    return sum / (double)n;
}

double round_trip_error(int n) {
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double e = fabs(re[i] - orig_re[i]) + fabs(im[i] - orig_im[i]);
        if (e > worst)
            worst = e;
    }
    return worst;
}

/* Direct DFT of the saved input (size n <= 64) into dft_re/dft_im. */
void direct_dft(int n) {
    for (int k = 0; k < n; k++) {
        double sr = 0.0, si = 0.0;
        for (int t = 0; t < n; t++) {
            double angle = -2.0 * PI * (double)((k * t) % n) / (double)n;
            sr += orig_re[t] * cos(angle) - orig_im[t] * sin(angle);
            si += orig_re[t] * sin(angle) + orig_im[t] * cos(angle);
        }
        dft_re[k] = sr;
        dft_im[k] = si;
    }
}

/* Prints the three largest bins of the lower half of the spectrum. */
void print_peaks(int n) {
    int best[3] = {-1, -1, -1};
    double best_mag[3] = {-1.0, -1.0, -1.0};
    for (int k = 0; k < n / 2; k++) {
        double mag = sqrt(re[k] * re[k] + im[k] * im[k]);
        if (mag > best_mag[2]) {
            int slot = 2;
            while (slot > 0 && mag > best_mag[slot - 1]) {
                best_mag[slot] = best_mag[slot - 1];
                best[slot] = best[slot - 1];
                slot--;
            }
            best_mag[slot] = mag;
            best[slot] = k;
        }
    }
    printf("  peaks: bin %d (%.3f) bin %d (%.3f) bin %d (%.3f)\n", best[0], best_mag[0] / n,
           best[1], best_mag[1] / n, best[2], best_mag[2] / n);
}

int main(void) {
    int failures = 0;
    double total_checksum = 0.0;

    for (int bits = 6; bits <= 12; bits++) {
        int n = 1 << bits;
        int repeats = 4 + 4096 * 5 / n; /* more repeats for small sizes */
        build_twiddles(n);
        for (int kind = 0; kind < 4; kind++) {
            double worst_trip = 0.0, worst_parseval = 0.0, spectrum_sum = 0.0;
            for (int r = 0; r < repeats; r++) {
                fill_signal(n, kind);
                double time_energy = energy(n);
                fft(n, bits, 0);
                double freq_energy = energy(n) / (double)n;
                double parseval = fabs(time_energy - freq_energy) / time_energy;
                if (parseval > worst_parseval)
                    worst_parseval = parseval;
                spectrum_sum += spectrum_signature(n);
                if (r == 0 && kind == 1)
                    print_peaks(n);
                if (r == 0 && bits == 6) {
                    direct_dft(n);
                    double diff = 0.0;
                    for (int k = 0; k < n; k++)
                        diff += fabs(dft_re[k] - re[k]) + fabs(dft_im[k] - im[k]);
                    printf("  n=64 kind %d: FFT vs direct DFT total difference %.3e\n", kind,
                           diff);
                    if (diff > 1e-9)
                        failures++;
                }
                fft(n, bits, 1);
                double trip = round_trip_error(n);
                if (trip > worst_trip)
                    worst_trip = trip;
            }
            printf("n=%4d kind %d x%3d: round trip %.3e parseval %.3e spectrum %.6f\n", n, kind,
                   repeats, worst_trip, worst_parseval, spectrum_sum / repeats);
            if (worst_trip > 1e-9 || worst_parseval > 1e-9)
                failures++;
            total_checksum += spectrum_sum;
        }
    }
    printf("checksum %.6f failures %d\n", total_checksum, failures);
    return failures == 0 ? 0 : 1;
}
