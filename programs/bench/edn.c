/* edn.c - a frame-based DSP pipeline built from small fixed-point kernels.

   Algorithms (all integer, Q15 samples unless noted), in the spirit of the
   EDN DSP benchmark kernels:
   - vec_scale_add: vector multiply-accumulate y += g*x (Q15 gain);
   - dot_and_energy: multiply-accumulate of two vectors and of one with itself;
   - lattice_analysis / lattice_synthesis: an order-8 FIR lattice (reflection
     coefficients in Q15) producing the prediction residual, and the matching
     all-pole lattice that rebuilds the frame from it; outputs are clipped to
     16 bits, and the round trip error is measured;
   - biquad_cascade: three second-order IIR sections (direct form I, Q14
     coefficients from the audio-EQ cookbook formulas: low-pass, peaking,
     high-pass) with a saturating output;
   - codebook_search: nearest of 128 codevectors of dimension 8 in squared
     distance, abandoning a candidate as soon as its partial distance exceeds
     the best so far (early exit).
   A driver loop classifies every 64-sample frame by energy and zero
   crossings (silence, unvoiced, voiced) and dispatches through a switch to a
   different chain of kernels for each class.

   Data: a speech-like generated signal (32-bit LCG): voiced stretches (a
   pulse train through a two-pole resonator with a drifting pitch), unvoiced
   noise bursts, and near-silent gaps, in a pattern that repeats with
   variations; the codebook is generated from the same LCG.

   Control flow for path profiling: a driver loop whose body switches on the
   frame class and calls 3-5 short kernels, each a loop (calls in loops, and
   cyclic class patterns across frames); the lattice loops are nested two
   deep (sample, stage) with clipping branches; the codebook search is a
   three-level nest (sub-vector, codevector, dimension) with an early exit
   and a data-dependent "new best" branch; the IIR sections are called per
   sample from a section loop.

   Loop-heavy: yes (the kernels are loops; calls are from loops). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

unsigned rng_state = 31415926u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

const int FRAME = 64;
const int ORDER = 8;
const int CODE_DIM = 8;
const int CODEWORDS = 128;

int frame_in[64];
int residual[64];
int rebuilt[64];
int work[64];
int reflection[8];
int codebook[128][8];
int biquad_coef[3][5];   /* b0 b1 b2 a1 a2 in Q14 */
int biquad_state[3][4];  /* x1 x2 y1 y2 per section */

int clip_count;
long dot_result, energy_result;

int clip16(long v) {
    if (v > 32767L) {
        clip_count++;
        return 32767;
    }
    if (v < -32768L) {
        clip_count++;
        return -32768;
    }
    return (int)v;
}

void vec_scale_add(int y[], const int x[], int gain, int n) {
    for (int i = 0; i < n; i++)
        y[i] = clip16((long)y[i] + ((long)gain * x[i] >> 15));
}

void dot_and_energy(const int a[], const int b[], int n) {
    long dot = 0, energy = 0;
    for (int i = 0; i < n; i++) {
        dot += (long)a[i] * b[i];
        energy += (long)a[i] * a[i];
    }
    dot_result = dot;
    energy_result = energy;
}

/* Reflection coefficients from the frame's autocorrelation (Levinson-Durbin
   in doubles, clamped to |k| < 0.95 so that the fixed-point lattice stays
   well behaved). */
void estimate_reflection(const int x[], int n) {
    double r[9], a[9], previous[9];
    for (int lag = 0; lag <= ORDER; lag++) {
        double s = 0.0;
        for (int i = lag; i < n; i++)
            s += (double)x[i] * x[i - lag];
        r[lag] = s;
    }
    for (int i = 0; i <= ORDER; i++)
        a[i] = 0.0;
    double error = r[0] + 1.0;
    for (int m = 1; m <= ORDER; m++) {
        double acc = r[m];
        for (int j = 1; j < m; j++)
            acc -= a[j] * r[m - j];
        double k = acc / error;
        if (k > 0.95)
            k = 0.95;
        else if (k < -0.95)
            k = -0.95;
        reflection[m - 1] = (int)floor(k * 32768.0 + 0.5);
        for (int j = 1; j < m; j++)
            previous[j] = a[j];
        a[m] = k;
        for (int j = 1; j < m; j++)
            a[j] = previous[j] - k * previous[m - j];
        error *= 1.0 - k * k;
    }
}

/* FIR lattice: f(i) = f(i-1) - k g(i-1)[t-1], g(i) = g(i-1)[t-1] - k f(i-1). */
void lattice_analysis(const int x[], int e[], int n) {
    int g_delay[8];
    for (int i = 0; i < ORDER; i++)
        g_delay[i] = 0;
    for (int t = 0; t < n; t++) {
        int f = x[t], g = x[t];
        for (int i = 0; i < ORDER; i++) {
            int f_next = clip16(f - ((long)reflection[i] * g_delay[i] >> 15));
            int g_next = clip16(g_delay[i] - ((long)reflection[i] * f >> 15));
            g_delay[i] = g;
            f = f_next;
            g = g_next;
        }
        e[t] = f;
    }
}

/* All-pole lattice: runs the stages backwards from the residual. */
void lattice_synthesis(const int e[], int y[], int n) {
    int g_delay[9];
    for (int i = 0; i <= ORDER; i++)
        g_delay[i] = 0;
    for (int t = 0; t < n; t++) {
        int f = e[t];
        for (int i = ORDER - 1; i >= 0; i--) {
            f = clip16(f + ((long)reflection[i] * g_delay[i] >> 15));
            g_delay[i + 1] = clip16(g_delay[i] - ((long)reflection[i] * f >> 15));
        }
        g_delay[0] = f;
        y[t] = f;
    }
}

/* One biquad section, direct form I, state in biquad_state[s]. */
int biquad_step(int s, int x) {
    long acc = (long)biquad_coef[s][0] * x + (long)biquad_coef[s][1] * biquad_state[s][0] +
               (long)biquad_coef[s][2] * biquad_state[s][1] -
               (long)biquad_coef[s][3] * biquad_state[s][2] -
               (long)biquad_coef[s][4] * biquad_state[s][3];
    int y = clip16((acc + 8192L) >> 14);
    biquad_state[s][1] = biquad_state[s][0];
    biquad_state[s][0] = x;
    biquad_state[s][3] = biquad_state[s][2];
    biquad_state[s][2] = y;
    return y;
}

void biquad_cascade(int y[], const int x[], int n, int sections) {
    for (int t = 0; t < n; t++) {
        int v = x[t];
        for (int s = 0; s < sections; s++)
            v = biquad_step(s, v);
        y[t] = v;
    }
}

void design_biquads(void) {
    const double pi = 3.14159265358979323846;
    const double freq[3] = {0.18, 0.07, 0.01};
    for (int s = 0; s < 3; s++) {
        double w = 2.0 * pi * freq[s], alpha = sin(w) / (2.0 * 0.8), c = cos(w);
        double b0, b1, b2, a0, a1, a2;
        if (s == 0) { /* low-pass */
            b0 = (1.0 - c) / 2.0, b1 = 1.0 - c, b2 = b0;
            a0 = 1.0 + alpha, a1 = -2.0 * c, a2 = 1.0 - alpha;
        } else if (s == 1) { /* peaking, +6 dB */
            double gain = 2.0;
            b0 = 1.0 + alpha * gain, b1 = -2.0 * c, b2 = 1.0 - alpha * gain;
            a0 = 1.0 + alpha / gain, a1 = -2.0 * c, a2 = 1.0 - alpha / gain;
        } else { /* high-pass */
            b0 = (1.0 + c) / 2.0, b1 = -(1.0 + c), b2 = b0;
            a0 = 1.0 + alpha, a1 = -2.0 * c, a2 = 1.0 - alpha;
        }
        double coef[5] = {b0 / a0, b1 / a0, b2 / a0, a1 / a0, a2 / a0};
        for (int k = 0; k < 5; k++)
            biquad_coef[s][k] = (int)floor(coef[k] * 16384.0 + 0.5);
    }
}

/* Index of the nearest codevector to v[at..at+CODE_DIM); partial distances
   abandon a candidate early.  Counts the dimensions examined. */
long dims_examined;

int codebook_search(const int v[], int at) {
    long best = -1;
    int best_index = 0;
    for (int c = 0; c < CODEWORDS; c++) {
        long distance = 0;
        int d = 0;
        for (; d < CODE_DIM; d++) {
            long diff = (long)v[at + d] - codebook[c][d];
            distance += diff * diff;
            if (best >= 0 && distance >= best)
                break;
        }
        dims_examined += d;
        if (d == CODE_DIM) {
            best = distance;
            best_index = c;
        }
    }
    return best_index;
}

/* Speech-like generator: state carried across frames. */
int pitch = 90, pulse_phase = 0;
long res1, res2;

void make_frame(int frame_number) {
    int segment = (frame_number / 3) % 7; /* 0-3 voiced, 4 unvoiced, 5-6 quiet */
    for (int t = 0; t < FRAME; t++) {
        long excitation;
        if (segment <= 3) {
            excitation = pulse_phase == 0 ? 12000 : 0;
            if (++pulse_phase >= pitch)
                pulse_phase = 0;
        } else if (segment == 4) {
            excitation = (long)(next_random() % 8001u) - 4000;
        } else {
            excitation = (long)(next_random() % 61u) - 30;
        }
        /* Two-pole resonator (Q10): a low formant for voiced sound,
           y = x + 1.6 y1 - 0.8 y2, a high one for noise, y = x - 1.2 y1 - 0.6 y2. */
        long y;
        if (segment == 4)
            y = excitation + (-1229 * res1 - 614 * res2) / 1024;
        else
            y = excitation + (1638 * res1 - 819 * res2) / 1024;
        res2 = res1;
        res1 = y;
        frame_in[t] = clip16(y);
    }
    pitch += (int)(next_random() % 7u) - 3;
    if (pitch < 60 || pitch > 140)
        pitch = 90;
}

int main(void) {
    const int frames = 4500;
    int class_count[3] = {0, 0, 0};
    int max_round_trip = 0;
    unsigned code_hash = 0u;
    unsigned checksum = 0u;
    for (int c = 0; c < CODEWORDS; c++)
        for (int d = 0; d < CODE_DIM; d++)
            codebook[c][d] = (int)(next_random() % 16001u) - 8000;
    design_biquads();
    for (int s = 0; s < 3; s++)
        printf("biquad %d: %d %d %d %d %d\n", s, biquad_coef[s][0], biquad_coef[s][1],
               biquad_coef[s][2], biquad_coef[s][3], biquad_coef[s][4]);

    for (int f = 0; f < frames; f++) {
        make_frame(f);
        dot_and_energy(frame_in, frame_in, FRAME);
        int crossings = 0;
        for (int t = 1; t < FRAME; t++)
            if ((frame_in[t - 1] < 0) != (frame_in[t] < 0))
                crossings++;
        int kind = energy_result < 2000000L ? 0 : (crossings > 20 ? 1 : 2);
        class_count[kind]++;
        switch (kind) {
        case 0: /* silence: attenuate and smooth only */
            for (int t = 0; t < FRAME; t++)
                work[t] = 0;
            vec_scale_add(work, frame_in, 8192, FRAME);
            biquad_cascade(rebuilt, work, FRAME, 1);
            break;
        case 1: /* unvoiced: shape the noise, quantize sub-vectors */
            biquad_cascade(rebuilt, frame_in, FRAME, 3);
            for (int v = 0; v < FRAME; v += CODE_DIM)
                code_hash = code_hash * 31u + (unsigned)codebook_search(rebuilt, v);
            break;
        default: { /* voiced: LPC lattice round trip and codebook on residual */
            estimate_reflection(frame_in, FRAME);
            lattice_analysis(frame_in, residual, FRAME);
            lattice_synthesis(residual, rebuilt, FRAME);
            for (int t = 0; t < FRAME; t++) {
                int e = abs(rebuilt[t] - frame_in[t]);
                if (e > max_round_trip)
                    max_round_trip = e;
            }
            for (int v = 0; v < FRAME; v += CODE_DIM)
                code_hash = code_hash * 31u + (unsigned)codebook_search(residual, v);
            for (int t = 0; t < FRAME; t++)
                work[t] = residual[t];
            vec_scale_add(work, rebuilt, 16384, FRAME);
            break;
        }
        }
        dot_and_energy(rebuilt, frame_in, FRAME);
        checksum = checksum * 16777619u ^ (unsigned)(dot_result >> 8) ^ (unsigned)work[f % FRAME];
        if (f % 450 == 449)
            printf("frame %4d: class %d output energy %ld dot %ld checksum %08x\n", f, kind,
                   energy_result, dot_result, checksum);
    }
    printf("classes: silence %d unvoiced %d voiced %d\n", class_count[0], class_count[1],
           class_count[2]);
    printf("lattice round trip max error %d, clips %d\n", max_round_trip, clip_count);
    printf("codebook: dims examined %ld, index hash %08x\n", dims_examined, code_hash);
    return 0;
}
