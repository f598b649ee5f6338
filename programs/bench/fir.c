/* fir.c - fixed-point FIR filtering with saturation, and a decimating filter.

   Algorithms: low-pass FIR filters of 8, 17, 33 and 64 taps, designed at
   start-up by the windowed-sinc method (Hamming window, doubles) and rounded
   to Q15.  Each filter runs over generated Q15 signals in three ways:
   (1) a circular delay line with a DSP-style saturating multiply-accumulate
   (the 32-bit accumulator clips on overflow, like the ETSI L_mac basic
   operation), (2) a shifting delay line with the same arithmetic, which must
   give bit-identical output, and (3) a folded linear-phase form that adds the
   two samples sharing a coefficient before multiplying, with a 64-bit
   accumulator and no clipping (so it differs from (1) exactly where the
   accumulator saturated).  Outputs are rounded and saturated back to 16 bits.
   A decimate-by-4 filter computes only every fourth output, skipping taps that
   fall before the start of the signal.

   Data: Q15 signals from a sine table and a 32-bit LCG: two mixed tones near
   full scale, a full-scale square wave (the filter's overshoot saturates), a
   uniform noise, a linear chirp, and a sparse impulse/step train.  Printed:
   output energies, peaks, saturation counts, checksums, and the checks
   circular == shifting.

   Control flow for path profiling: nested loops (signal, filter, sample, tap)
   with a small saturating-MAC function called in the innermost loop, whose two
   clipping branches are taken in bursts (square wave, high-amplitude tones);
   the circular index wraps with a branch once per pass over the delay line,
   so the tap loop's paths form a cycle whose phase moves with each sample;
   the folded loop has an odd/even middle-tap branch; the decimator has a
   boundary test in its tap loop that is true only at the start.  The signal
   generator switches on the kind of signal.

   Loop-heavy: yes (the tap loops nested in the sample loops). */
#include <stdio.h>
#include <math.h>

unsigned rng_state = 987654321u;

unsigned next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

const int SAMPLES = 10000;
const int FILTERS = 4;
const int tap_counts[4] = {8, 17, 33, 64};

int coefficients[4][64];
int sine_table[1024];
int signal_in[10000];
int out_circular[10000];
int out_shifting[10000];
int out_folded[10000];
int out_decimated[2500];

int clip32_count; /* accumulator saturations */
int clip16_count; /* output saturations */

void design_filters(void) {
    const double pi = 3.14159265358979323846;
    for (int f = 0; f < FILTERS; f++) {
        int n = tap_counts[f];
        double cutoff = 0.1 + 0.05 * f; /* fraction of the sample rate */
        double middle = (n - 1) / 2.0;
        for (int k = 0; k < n; k++) {
            double t = k - middle;
            double ideal = t == 0.0 ? 2.0 * cutoff : sin(2.0 * pi * cutoff * t) / (pi * t);
            double window = 0.54 - 0.46 * cos(2.0 * pi * k / (n - 1));
            coefficients[f][k] = (int)floor(ideal * window * 32768.0 + 0.5);
        }
    }
    for (int i = 0; i < 1024; i++)
        sine_table[i] = (int)floor(32767.0 * sin(2.0 * pi * i / 1024.0) + 0.5);
}

/* acc + 2*a*b, clipped to the 32-bit range. */
long mac_saturating(long acc, int a, int b) {
    acc += 2L * a * b;
    if (acc > 2147483647L) {
        clip32_count++;
        return 2147483647L;
    }
    if (acc < -2147483648L) {
        clip32_count++;
        return -2147483648L;
    }
    return acc;
}

/* Rounds a Q31 accumulator to Q15 with 16-bit saturation. */
int round_to_q15(long acc) {
    long value = (acc + 32768L) >> 16;
    if (value > 32767L) {
        clip16_count++;
        return 32767;
    }
    if (value < -32768L) {
        clip16_count++;
        return -32768;
    }
    return (int)value;
}

void fir_circular(const int x[], int n, const int h[], int taps, int y[]) {
    int delay[64];
    for (int k = 0; k < taps; k++)
        delay[k] = 0;
    int newest = 0;
    for (int i = 0; i < n; i++) {
        delay[newest] = x[i];
        long acc = 0;
        int index = newest;
        for (int k = 0; k < taps; k++) {
            acc = mac_saturating(acc, h[k], delay[index]);
            if (index == 0)
                index = taps - 1;
            else
                index--;
        }
        y[i] = round_to_q15(acc);
        newest++;
        if (newest == taps)
            newest = 0;
    }
}

void fir_shifting(const int x[], int n, const int h[], int taps, int y[]) {
    int delay[64];
    for (int k = 0; k < taps; k++)
        delay[k] = 0;
    for (int i = 0; i < n; i++) {
        for (int k = taps - 1; k > 0; k--)
            delay[k] = delay[k - 1];
        delay[0] = x[i];
        long acc = 0;
        for (int k = 0; k < taps; k++)
            acc = mac_saturating(acc, h[k], delay[k]);
        y[i] = round_to_q15(acc);
    }
}

/* Linear-phase form: h[k] == h[taps-1-k] for the windowed-sinc designs. */
void fir_folded(const int x[], int n, const int h[], int taps, int y[]) {
    for (int i = 0; i < n; i++) {
        long acc = 0;
        for (int k = 0; k < taps / 2; k++) {
            int j = i - (taps - 1 - k);
            int near = i - k >= 0 ? x[i - k] : 0;
            int far = j >= 0 ? x[j] : 0;
            acc += 2L * h[k] * (near + far);
        }
        if (taps % 2 == 1 && i >= taps / 2)
            acc += 2L * h[taps / 2] * x[i - taps / 2];
        y[i] = round_to_q15(acc);
    }
}

/* Low-pass then keep every factor-th sample; returns the output count. */
int fir_decimate(const int x[], int n, const int h[], int taps, int factor, int y[]) {
    int count = 0;
    for (int i = factor - 1; i < n; i += factor) {
        long acc = 0;
        for (int k = 0; k < taps; k++) {
            if (i - k < 0)
                break;
            acc = mac_saturating(acc, h[k], x[i - k]);
        }
        y[count++] = round_to_q15(acc);
    }
    return count;
}

void make_signal(int kind, int n) {
    unsigned phase = 0u, rate = 40u << 16;
    for (int i = 0; i < n; i++) {
        int v;
        switch (kind) {
        case 0: /* two tones, near full scale */
            v = sine_table[(i * 7) & 1023] / 2 + sine_table[(i * 151) & 1023] * 7 / 16;
            break;
        case 1: /* square wave with a period of 50 samples */
            v = (i / 25) % 2 == 0 ? 30000 : -30000;
            break;
        case 2: /* uniform noise */
            v = (int)(next_random() >> 16) - 32768;
            break;
        case 3: /* chirp: the phase increment grows linearly */
            v = sine_table[(phase >> 16) & 1023u] * 15 / 16;
            phase += rate;
            rate += 1u << 9;
            break;
        default: { /* impulses on a drifting step level */
            unsigned r = next_random();
            int level = (i / 300) % 3 == 0 ? 8000 : -12000;
            v = (r & 63u) == 0u ? ((r & 64u) ? 32767 : -32768) : level;
            break;
        }
        }
        signal_in[i] = v;
    }
}

long energy(const int y[], int n) {
    long e = 0;
    for (int i = 0; i < n; i++)
        e += (long)y[i] * y[i] >> 8;
    return e;
}

unsigned checksum(const int y[], int n) {
    unsigned h = 0u;
    for (int i = 0; i < n; i++)
        h = (h << 5 | h >> 27) ^ (unsigned)y[i];
    return h;
}

int main(void) {
    int mismatches = 0;
    unsigned total = 0u;
    design_filters();
    for (int f = 0; f < FILTERS; f++) {
        long dc = 0;
        for (int k = 0; k < tap_counts[f]; k++)
            dc += coefficients[f][k];
        printf("filter %d: %2d taps, dc gain %ld, centre %d\n", f, tap_counts[f], dc,
               coefficients[f][tap_counts[f] / 2]);
    }
    for (int kind = 0; kind < 5; kind++) {
        make_signal(kind, SAMPLES);
        printf("signal %d: energy %ld\n", kind, energy(signal_in, SAMPLES));
        for (int f = 0; f < FILTERS; f++) {
            clip32_count = clip16_count = 0;
            fir_circular(signal_in, SAMPLES, coefficients[f], tap_counts[f], out_circular);
            int clips32 = clip32_count, clips16 = clip16_count;
            fir_shifting(signal_in, SAMPLES, coefficients[f], tap_counts[f], out_shifting);
            fir_folded(signal_in, SAMPLES, coefficients[f], tap_counts[f], out_folded);
            int same = 1, differ = 0;
            for (int i = 0; i < SAMPLES; i++) {
                if (out_circular[i] != out_shifting[i])
                    same = 0;
                if (out_circular[i] != out_folded[i])
                    differ++;
            }
            if (!same)
                mismatches++;
            int count = fir_decimate(signal_in, SAMPLES, coefficients[f], tap_counts[f], 4,
                                     out_decimated);
            unsigned sum = checksum(out_circular, SAMPLES);
            printf("  filter %d: energy %ld clips %d/%d same %d folded diffs %d "
                   "sum %08x decimated %d energy %ld sum %08x\n",
                   f, energy(out_circular, SAMPLES), clips32, clips16, same, differ, sum,
                   count, energy(out_decimated, count), checksum(out_decimated, count));
            total = total * 1000003u ^ sum;
        }
    }
    printf("total %08x mismatches %d\n", total, mismatches);
    return mismatches == 0 ? 0 : 1;
}
