/* fdct.c - integer 8x8 forward and inverse DCT with JPEG-style quantization.

   Algorithm: the Loeffler-Ligtenberg-Moschytz factorization of the 8-point
   DCT in fixed point (13-bit constants), applied to rows and then columns,
   as in the "slow but accurate" integer DCT of JPEG codecs: the forward DCT
   leaves its outputs scaled up by 8 (folded into quantization), keeping 2
   extra bits of precision between the passes.  Each block is level-shifted,
   transformed, quantized with the standard JPEG luminance table scaled to a
   quality factor (rounding to nearest, away from zero), scanned in zigzag
   order to count zero runs and the end-of-block position (as an entropy coder
   would), then dequantized and inverse transformed, with shortcuts for
   columns/rows whose AC terms are all zero and clamping of the reconstructed
   samples to 0..255.

   Data: synthetic 128x128 grey-level images from a 32-bit LCG: smooth
   gradients, flat rectangles, sharp edges, a checkerboard texture and noise,
   so that blocks range from all-flat (IDCT shortcuts, early end of block) to
   busy (many nonzero coefficients, clamping).  Each image is coded at three
   quality factors; round-trip error statistics (squared error, maximum error,
   PSNR), zero-coefficient counts and checksums are printed.

   Control flow for path profiling: loops over images, qualities, blocks, and
   inside each transform an 8-iteration loop whose body is a long straight
   butterfly, called once per block (calls in loops); the IDCT loop bodies
   branch on "all AC terms zero" (data dependent, differs between columns of a
   block and between rows); quantization branches on the sign and on zero;
   the zigzag scan loop has run/no-run branches; the clamp has three-way
   branches per sample.  The pixel generator has a chain of region tests.

   Loop-heavy: yes (the row/column loops of the transforms and the 64-element
   loops of quantization, scanning and clamping). */
#include <stdio.h>
#include <math.h>

unsigned rng_state = 20240601u;

unsigned next_random(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* Fixed-point constants: round(x * 2^13). */
const int CONST_BITS = 13;
const int PASS1_BITS = 2;
const int FIX_0_298631336 = 2446;
const int FIX_0_390180644 = 3196;
const int FIX_0_541196100 = 4433;
const int FIX_0_765366865 = 6270;
const int FIX_0_899976223 = 7373;
const int FIX_1_175875602 = 9633;
const int FIX_1_501321110 = 12299;
const int FIX_1_847759065 = 15137;
const int FIX_1_961570560 = 16069;
const int FIX_2_053119869 = 16819;
const int FIX_2_562915447 = 20995;
const int FIX_3_072711026 = 25172;

const int base_quant[64] = {
    16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
    14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
    18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};

const int zigzag[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

int image[128][128];
int quant[64];

/* Rounding right shift (arithmetic for negative values). */
int descale(int x, int n) {
    return (x + (1 << (n - 1))) >> n;
}

/* In-place forward DCT of block[64] (row-major), output scaled by 8. */
void forward_dct(int block[]) {
    /* Pass 1: rows; results scaled up by 2^PASS1_BITS. */
    for (int row = 0; row < 8; row++) {
        int b = row * 8;
        int tmp0 = block[b + 0] + block[b + 7], tmp7 = block[b + 0] - block[b + 7];
        int tmp1 = block[b + 1] + block[b + 6], tmp6 = block[b + 1] - block[b + 6];
        int tmp2 = block[b + 2] + block[b + 5], tmp5 = block[b + 2] - block[b + 5];
        int tmp3 = block[b + 3] + block[b + 4], tmp4 = block[b + 3] - block[b + 4];
        /* Even part. */
        int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
        int tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
        block[b + 0] = (tmp10 + tmp11) * (1 << PASS1_BITS);
        block[b + 4] = (tmp10 - tmp11) * (1 << PASS1_BITS);
        int z1 = (tmp12 + tmp13) * FIX_0_541196100;
        block[b + 2] = descale(z1 + tmp13 * FIX_0_765366865, CONST_BITS - PASS1_BITS);
        block[b + 6] = descale(z1 - tmp12 * FIX_1_847759065, CONST_BITS - PASS1_BITS);
        /* Odd part: rotations shared through z5. */
        z1 = tmp4 + tmp7;
        int z2 = tmp5 + tmp6, z3 = tmp4 + tmp6, z4 = tmp5 + tmp7;
        int z5 = (z3 + z4) * FIX_1_175875602;
        tmp4 *= FIX_0_298631336;
        tmp5 *= FIX_2_053119869;
        tmp6 *= FIX_3_072711026;
        tmp7 *= FIX_1_501321110;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 = z3 * -FIX_1_961570560 + z5;
        z4 = z4 * -FIX_0_390180644 + z5;
        block[b + 7] = descale(tmp4 + z1 + z3, CONST_BITS - PASS1_BITS);
        block[b + 5] = descale(tmp5 + z2 + z4, CONST_BITS - PASS1_BITS);
        block[b + 3] = descale(tmp6 + z2 + z3, CONST_BITS - PASS1_BITS);
        block[b + 1] = descale(tmp7 + z1 + z4, CONST_BITS - PASS1_BITS);
    }
    /* Pass 2: columns; removes the PASS1_BITS scaling. */
    for (int col = 0; col < 8; col++) {
        int tmp0 = block[col] + block[56 + col], tmp7 = block[col] - block[56 + col];
        int tmp1 = block[8 + col] + block[48 + col], tmp6 = block[8 + col] - block[48 + col];
        int tmp2 = block[16 + col] + block[40 + col], tmp5 = block[16 + col] - block[40 + col];
        int tmp3 = block[24 + col] + block[32 + col], tmp4 = block[24 + col] - block[32 + col];
        int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
        int tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
        block[col] = descale(tmp10 + tmp11, PASS1_BITS);
        block[32 + col] = descale(tmp10 - tmp11, PASS1_BITS);
        int z1 = (tmp12 + tmp13) * FIX_0_541196100;
        block[16 + col] = descale(z1 + tmp13 * FIX_0_765366865, CONST_BITS + PASS1_BITS);
        block[48 + col] = descale(z1 - tmp12 * FIX_1_847759065, CONST_BITS + PASS1_BITS);
        z1 = tmp4 + tmp7;
        int z2 = tmp5 + tmp6, z3 = tmp4 + tmp6, z4 = tmp5 + tmp7;
        int z5 = (z3 + z4) * FIX_1_175875602;
        tmp4 *= FIX_0_298631336;
        tmp5 *= FIX_2_053119869;
        tmp6 *= FIX_3_072711026;
        tmp7 *= FIX_1_501321110;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 = z3 * -FIX_1_961570560 + z5;
        z4 = z4 * -FIX_0_390180644 + z5;
        block[56 + col] = descale(tmp4 + z1 + z3, CONST_BITS + PASS1_BITS);
        block[40 + col] = descale(tmp5 + z2 + z4, CONST_BITS + PASS1_BITS);
        block[24 + col] = descale(tmp6 + z2 + z3, CONST_BITS + PASS1_BITS);
        block[8 + col] = descale(tmp7 + z1 + z4, CONST_BITS + PASS1_BITS);
    }
}

int clamp_sample(int x) {
    if (x < 0)
        return 0;
    if (x > 255)
        return 255;
    return x;
}

int clamped_count;

/* Dequantizes coef[64] and inverse transforms it into pixels[64] (0..255). */
void inverse_dct(const int coef[], int pixels[]) {
    int work[64];
    /* Pass 1: columns, dequantizing on the fly. */
    for (int col = 0; col < 8; col++) {
        if (coef[8 + col] == 0 && coef[16 + col] == 0 && coef[24 + col] == 0 &&
            coef[32 + col] == 0 && coef[40 + col] == 0 && coef[48 + col] == 0 &&
            coef[56 + col] == 0) {
            int dc = coef[col] * quant[col] * (1 << PASS1_BITS);
            for (int r = 0; r < 8; r++)
                work[r * 8 + col] = dc;
            continue;
        }
        int z2 = coef[16 + col] * quant[16 + col], z3 = coef[48 + col] * quant[48 + col];
        int z1 = (z2 + z3) * FIX_0_541196100;
        int tmp2 = z1 - z3 * FIX_1_847759065;
        int tmp3 = z1 + z2 * FIX_0_765366865;
        z2 = coef[col] * quant[col];
        z3 = coef[32 + col] * quant[32 + col];
        int tmp0 = (z2 + z3) * (1 << CONST_BITS);
        int tmp1 = (z2 - z3) * (1 << CONST_BITS);
        int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
        int tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
        tmp0 = coef[56 + col] * quant[56 + col];
        tmp1 = coef[40 + col] * quant[40 + col];
        tmp2 = coef[24 + col] * quant[24 + col];
        tmp3 = coef[8 + col] * quant[8 + col];
        z1 = tmp0 + tmp3, z2 = tmp1 + tmp2, z3 = tmp0 + tmp2;
        int z4 = tmp1 + tmp3;
        int z5 = (z3 + z4) * FIX_1_175875602;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 = z3 * -FIX_1_961570560 + z5;
        z4 = z4 * -FIX_0_390180644 + z5;
        tmp0 = tmp0 * FIX_0_298631336 + z1 + z3;
        tmp1 = tmp1 * FIX_2_053119869 + z2 + z4;
        tmp2 = tmp2 * FIX_3_072711026 + z2 + z3;
        tmp3 = tmp3 * FIX_1_501321110 + z1 + z4;
        int shift = CONST_BITS - PASS1_BITS;
        work[col] = descale(tmp10 + tmp3, shift);
        work[56 + col] = descale(tmp10 - tmp3, shift);
        work[8 + col] = descale(tmp11 + tmp2, shift);
        work[48 + col] = descale(tmp11 - tmp2, shift);
        work[16 + col] = descale(tmp12 + tmp1, shift);
        work[40 + col] = descale(tmp12 - tmp1, shift);
        work[24 + col] = descale(tmp13 + tmp0, shift);
        work[32 + col] = descale(tmp13 - tmp0, shift);
    }
    /* Pass 2: rows, removing all scaling (PASS1_BITS + 3) and the level
       shift, then clamping to the sample range. */
    for (int row = 0; row < 8; row++) {
        int b = row * 8;
        if (work[b + 1] == 0 && work[b + 2] == 0 && work[b + 3] == 0 && work[b + 4] == 0 &&
            work[b + 5] == 0 && work[b + 6] == 0 && work[b + 7] == 0) {
            int value = descale(work[b], PASS1_BITS + 3) + 128;
            int sample = clamp_sample(value);
            if (sample != value)
                clamped_count += 8;
            for (int k = 0; k < 8; k++)
                pixels[b + k] = sample;
            continue;
        }
        int z2 = work[b + 2], z3 = work[b + 6];
        int z1 = (z2 + z3) * FIX_0_541196100;
        int tmp2 = z1 - z3 * FIX_1_847759065;
        int tmp3 = z1 + z2 * FIX_0_765366865;
        int tmp0 = (work[b] + work[b + 4]) * (1 << CONST_BITS);
        int tmp1 = (work[b] - work[b + 4]) * (1 << CONST_BITS);
        int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3;
        int tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
        tmp0 = work[b + 7], tmp1 = work[b + 5];
        tmp2 = work[b + 3], tmp3 = work[b + 1];
        z1 = tmp0 + tmp3, z2 = tmp1 + tmp2, z3 = tmp0 + tmp2;
        int z4 = tmp1 + tmp3;
        int z5 = (z3 + z4) * FIX_1_175875602;
        z1 *= -FIX_0_899976223;
        z2 *= -FIX_2_562915447;
        z3 = z3 * -FIX_1_961570560 + z5;
        z4 = z4 * -FIX_0_390180644 + z5;
        tmp0 = tmp0 * FIX_0_298631336 + z1 + z3;
        tmp1 = tmp1 * FIX_2_053119869 + z2 + z4;
        tmp2 = tmp2 * FIX_3_072711026 + z2 + z3;
        tmp3 = tmp3 * FIX_1_501321110 + z1 + z4;
        int out[8];
        int shift = CONST_BITS + PASS1_BITS + 3;
        out[0] = descale(tmp10 + tmp3, shift);
        out[7] = descale(tmp10 - tmp3, shift);
        out[1] = descale(tmp11 + tmp2, shift);
        out[6] = descale(tmp11 - tmp2, shift);
        out[2] = descale(tmp12 + tmp1, shift);
        out[5] = descale(tmp12 - tmp1, shift);
        out[3] = descale(tmp13 + tmp0, shift);
        out[4] = descale(tmp13 - tmp0, shift);
        for (int k = 0; k < 8; k++) {
            int sample = clamp_sample(out[k] + 128);
            if (sample != out[k] + 128)
                clamped_count++;
            pixels[b + k] = sample;
        }
    }
}

/* JPEG quality scaling of the base table (quality 1..100). */
void set_quality(int quality) {
    int scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
    for (int i = 0; i < 64; i++) {
        int q = (base_quant[i] * scale + 50) / 100;
        if (q < 1)
            q = 1;
        if (q > 255)
            q = 255;
        quant[i] = q;
    }
}

/* Quantizes the (x8 scaled) DCT output in place; returns the nonzero count. */
int quantize(int block[]) {
    int nonzero = 0;
    for (int i = 0; i < 64; i++) {
        int divisor = quant[i] * 8;
        int value = block[i];
        int q;
        if (value >= 0)
            q = (value + divisor / 2) / divisor;
        else
            q = -((-value + divisor / 2) / divisor);
        if (q != 0)
            nonzero++;
        block[i] = q;
    }
    return nonzero;
}

/* Zigzag scan: returns the end-of-block position and accumulates run stats. */
int longest_run;
int run_symbols;

int zigzag_scan(const int block[]) {
    int run = 0, last = 0;
    for (int k = 1; k < 64; k++) {
        if (block[zigzag[k]] == 0) {
            run++;
            continue;
        }
        if (run > longest_run)
            longest_run = run;
        while (run >= 16) { /* a JPEG coder emits ZRL symbols here */
            run_symbols++;
            run -= 16;
        }
        run_symbols++;
        run = 0;
        last = k;
    }
    return last;
}

/* Synthetic image: a mix of regions chosen by position and a per-image seed. */
void make_image(int seed) {
    int cx = 20 + seed * 37 % 80, cy = 30 + seed * 53 % 70;
    for (int y = 0; y < 128; y++) {
        for (int x = 0; x < 128; x++) {
            int v;
            unsigned r = next_random();
            if (x < 40 && y < 48)
                v = 40 + (x * 3 + y * 2) / 2; /* smooth gradient */
            else if (x >= cx && x < cx + 24 && y >= cy && y < cy + 20)
                v = 200; /* flat bright rectangle */
            else if (y >= 96)
                v = ((x / 4 + y / 4) % 2 == 0) ? 30 : 225; /* checkerboard */
            else if (x > y + seed % 16)
                v = 90 + (int)(r % 9u); /* slightly noisy plateau */
            else
                v = 150 + (int)(r % 61u) - 30; /* noisy texture */
            image[y][x] = v;
        }
    }
}

int main(void) {
    const int images = 24;
    const int qualities[5] = {10, 25, 50, 75, 100};
    int block[64], pixels[64];
    unsigned checksum = 0u;
    long total_nonzero[5], total_eob[5], total_runs[5], total_clamped[5], total_sse[5];
    int worst[5], longest[5];
    for (int qi = 0; qi < 5; qi++) {
        total_nonzero[qi] = total_eob[qi] = total_runs[qi] = total_clamped[qi] = 0;
        total_sse[qi] = 0;
        worst[qi] = longest[qi] = 0;
    }
    for (int pass = 0; pass < images; pass++) {
        make_image(pass);
        printf("image %2d psnr:", pass);
        for (int qi = 0; qi < 5; qi++) {
            set_quality(qualities[qi]);
            long squared = 0;
            int max_error = 0;
            clamped_count = 0;
            longest_run = 0;
            run_symbols = 0;
            for (int by = 0; by < 128; by += 8) {
                for (int bx = 0; bx < 128; bx += 8) {
                    for (int i = 0; i < 64; i++)
                        block[i] = image[by + i / 8][bx + i % 8] - 128;
                    forward_dct(block);
                    total_nonzero[qi] += quantize(block);
                    total_eob[qi] += zigzag_scan(block);
                    for (int i = 0; i < 64; i++)
                        checksum = checksum * 33u + (unsigned)block[i];
                    inverse_dct(block, pixels);
                    for (int i = 0; i < 64; i++) {
                        int e = pixels[i] - image[by + i / 8][bx + i % 8];
                        if (e < 0)
                            e = -e;
                        if (e > max_error)
                            max_error = e;
                        squared += e * e;
                    }
                }
            }
            double mse = (double)squared / (128.0 * 128.0);
            double psnr = mse > 0.0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
            printf(" q%d %.3f", qualities[qi], psnr);
            total_sse[qi] += squared;
            total_runs[qi] += run_symbols;
            total_clamped[qi] += clamped_count;
            if (max_error > worst[qi])
                worst[qi] = max_error;
            if (longest_run > longest[qi])
                longest[qi] = longest_run;
        }
        printf("\n");
    }
    for (int qi = 0; qi < 5; qi++)
        printf("quality %3d: nonzero %6ld eob %6ld runs %6ld longest %2d clamped %4ld "
               "sse %8ld max error %2d\n",
               qualities[qi], total_nonzero[qi], total_eob[qi], total_runs[qi], longest[qi],
               total_clamped[qi], total_sse[qi], worst[qi]);
    /* At quality 100 every divisor is 1: the round trip must be nearly exact. */
    int ok = worst[4] <= 2;
    printf("coefficient checksum %08x, quality-100 check ok=%d\n", checksum, ok);
    return ok ? 0 : 1;
}
