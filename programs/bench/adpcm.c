/* adpcm.c - IMA ADPCM encoding and decoding of a generated waveform.

   Algorithm: the IMA/DVI ADPCM codec: 16-bit samples become 4-bit codes (a
   sign bit and three magnitude bits).  The encoder compares the difference
   between the sample and its prediction with the current step size, then
   half and a quarter of it (successive approximation, three branches),
   updates the prediction by the quantized difference with clamping to
   16 bits, and adapts the step index through the index table (clamped to
   0..88 of the 89-entry step-size table).  Codes are packed two per byte.
   The decoder unpacks the nibbles and mirrors the prediction update; its
   output must equal the encoder's running prediction sample for sample, and
   the error against the original is measured (SNR, maximum error).

   Data: 16-bit waveforms from a sine table (built with sin()) and a 32-bit
   LCG, in segments: a pure tone, a two-tone chord with a slow envelope,
   a swept tone, a square wave (large steps: the step index jumps and the
   prediction clamps), white noise, near-silence, and a decaying "drum"
   burst.  Per segment the SNR, maximum error, code histogram entropy-like
   checksum and step index statistics are printed.

   Control flow for path profiling: the sample loop of the encoder has a
   sign branch, three successive-approximation branches, two clamping tests
   for the prediction and two for the step index (2^3 magnitude patterns
   times signs and clamps: dozens of paths, following the signal's shape
   cyclically for periodic segments); the decoder's loop has an odd/even
   nibble branch and the same update branches; the generator switches on the
   segment kind; encode and decode are called per segment from a loop.

   Loop-heavy: yes (the per-sample loops of encoder and decoder). */
#include <stdio.h>
#include <math.h>

const int index_table[16] = {-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8};

const int step_table[89] = {
    7,     8,     9,     10,    11,    12,    13,    14,    16,    17,    19,    21,    23,
    25,    28,    31,    34,    37,    41,    45,    50,    55,    60,    66,    73,    80,
    88,    97,    107,   118,   130,   143,   157,   173,   190,   209,   230,   253,   279,
    307,   337,   371,   408,   449,   494,   544,   598,   658,   724,   796,   876,   963,
    1060,  1166,  1282,  1411,  1552,  1707,  1878,  2066,  2272,  2499,  2749,  3024,  3327,
    3660,  4026,  4428,  4871,  5358,  5894,  6484,  7132,  7845,  8630,  9493,  10442, 11487,
    12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767};

const int SEGMENT = 4096;
int samples[4096];
int packed[2048];
int encoder_trace[4096];
int decoded[4096];
int sine_table[1024];
int code_histogram[16];

unsigned rng_state = 1234567u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 9;
}

/* Codec state, one per direction. */
int enc_prediction, enc_index, dec_prediction, dec_index;
int prediction_clamps, index_clamps_low, index_clamps_high;

int clamp_prediction(int value) {
    if (value > 32767) {
        prediction_clamps++;
        return 32767;
    }
    if (value < -32768) {
        prediction_clamps++;
        return -32768;
    }
    return value;
}

int adapt_index(int index, int code) {
    index += index_table[code];
    if (index < 0) {
        index_clamps_low++;
        return 0;
    }
    if (index > 88) {
        index_clamps_high++;
        return 88;
    }
    return index;
}

void encode(int n) {
    for (int i = 0; i < n; i++) {
        int step = step_table[enc_index];
        int diff = samples[i] - enc_prediction;
        int code = 0;
        if (diff < 0) {
            code = 8;
            diff = -diff;
        }
        /* vpdiff = (magnitude + 0.5) * step / 4, computed by shifts. */
        int vpdiff = step >> 3;
        if (diff >= step) {
            code |= 4;
            diff -= step;
            vpdiff += step;
        }
        step >>= 1;
        if (diff >= step) {
            code |= 2;
            diff -= step;
            vpdiff += step;
        }
        step >>= 1;
        if (diff >= step) {
            code |= 1;
            vpdiff += step;
        }
        if (code & 8)
            enc_prediction = clamp_prediction(enc_prediction - vpdiff);
        else
            enc_prediction = clamp_prediction(enc_prediction + vpdiff);
        enc_index = adapt_index(enc_index, code);
        encoder_trace[i] = enc_prediction;
        code_histogram[code]++;
        if (i % 2 == 0)
            packed[i / 2] = code;
        else
            packed[i / 2] |= code << 4;
    }
}

void decode(int n) {
    for (int i = 0; i < n; i++) {
        int code;
        if (i % 2 == 0)
            code = packed[i / 2] & 15;
        else
            code = packed[i / 2] >> 4;
        int step = step_table[dec_index];
        int vpdiff = step >> 3;
        if (code & 4)
            vpdiff += step;
        if (code & 2)
            vpdiff += step >> 1;
        if (code & 1)
            vpdiff += step >> 2;
        if (code & 8)
            dec_prediction = clamp_prediction(dec_prediction - vpdiff);
        else
            dec_prediction = clamp_prediction(dec_prediction + vpdiff);
        dec_index = adapt_index(dec_index, code);
        decoded[i] = dec_prediction;
    }
}

void generate(int kind, int n, int variant) {
    unsigned phase = 0u, rate = (unsigned)(20 + variant * 7) << 20;
    /* Four noise realizations per kind, reused across passes. */
    rng_state = 1234567u + (unsigned)(kind * 16 + variant % 4);
    for (int i = 0; i < n; i++) {
        int v;
        switch (kind) {
        case 0: /* pure tone */
            v = sine_table[(i * (5 + variant)) & 1023] * 3 / 4;
            break;
        case 1: { /* chord with a slow triangular envelope */
            int envelope = i % 2048 < 1024 ? i % 1024 : 1023 - i % 1024;
            v = (sine_table[(i * 3) & 1023] + sine_table[(i * 8) & 1023] / 2) * envelope / 1600;
            break;
        }
        case 2: /* rising sweep */
            v = sine_table[phase >> 22] / 2;
            phase += rate;
            rate += 1u << 12;
            break;
        case 3: /* full-scale square wave */
            v = (i / (20 + variant)) % 2 ? 32000 : -32000;
            break;
        case 4: /* white noise */
            v = (int)(next_random() % 40001u) - 20000;
            break;
        case 5: /* near silence */
            v = (int)(next_random() % 9u) - 4;
            break;
        default: { /* decaying drum hits every 1024 samples */
            int t = i % 1024;
            int decay = 1024 - t;
            v = (sine_table[(t * 13) & 1023] + (int)(next_random() % 4001u) - 2000) / 1024 * decay;
            break;
        }
        }
        samples[i] = v;
    }
}

int main(void) {
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < 1024; i++)
        sine_table[i] = (int)floor(30000.0 * sin(2.0 * pi * i / 1024.0) + 0.5);
    int mismatches = 0;
    unsigned stream_hash = 0u;
    double total_signal = 0.0, total_noise = 0.0;
    for (int kind = 0; kind < 7; kind++) {
        double signal_energy = 0.0, noise_energy = 0.0;
        int max_error = 0, index_sum = 0;
        for (int pass = 0; pass < 80; pass++) {
            generate(kind, SEGMENT, pass);
            /* Block header, as in IMA ADPCM in WAV files: the first sample
               is sent verbatim as the predictor; the step index carries on. */
            enc_prediction = dec_prediction = samples[0];
            dec_index = enc_index;
            encode(SEGMENT);
            decode(SEGMENT);
            for (int i = 0; i < SEGMENT; i++) {
                if (decoded[i] != encoder_trace[i])
                    mismatches++;
                int e = decoded[i] - samples[i];
                if (e < 0)
                    e = -e;
                if (e > max_error)
                    max_error = e;
                signal_energy += (double)samples[i] * samples[i];
                noise_energy += (double)e * e;
            }
            for (int i = 0; i < SEGMENT / 2; i++)
                stream_hash = (stream_hash ^ (unsigned)packed[i]) * 16777619u;
            index_sum += enc_index;
        }
        double snr = noise_energy > 0.0 ? 10.0 * log10(signal_energy / noise_energy) : 99.0;
        printf("kind %d: snr %7.3f dB max error %5d final index sum %4d hash %08x\n", kind, snr,
               max_error, index_sum, stream_hash);
        total_signal += signal_energy;
        total_noise += noise_energy;
    }
    printf("codes:");
    for (int c = 0; c < 16; c++)
        printf(" %d", code_histogram[c]);
    printf("\n");
    printf("clamps: prediction %d index low %d high %d\n", prediction_clamps, index_clamps_low,
           index_clamps_high);
    printf("overall snr %.4f dB, decoder mismatches %d\n",
           10.0 * log10(total_signal / total_noise), mismatches);
    return mismatches == 0 ? 0 : 1;
}
