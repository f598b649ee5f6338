/* Run-length and LZ77-style compression of char buffers: pointer-walking encoders/decoders, back-references copied byte by byte (overlapping), round-trip checks. */
#include <stdio.h>
#include <string.h>

/* RLE: runs of 3..130 equal bytes become 0xFF, count-3, byte; a literal 0xFF becomes 0xFF 0xFF. */
static size_t rle_encode(const unsigned char *in, size_t n, unsigned char *out) {
    const unsigned char *p = in, *end = in + n;
    unsigned char *o = out;
    while (p < end) {
        const unsigned char *run = p;
        while (run < end && *run == *p && run - p < 130) run++;
        size_t len = (size_t)(run - p);
        if (len >= 3 && *p != 0xFF) {
            *o++ = 0xFF;
            *o++ = (unsigned char)(len - 3);
            *o++ = *p;
            p = run;
        } else if (*p == 0xFF) {
            *o++ = 0xFF;
            *o++ = 0xFF;
            p++;
        } else {
            *o++ = *p++;
        }
    }
    return (size_t)(o - out);
}

static size_t rle_decode(const unsigned char *in, size_t n, unsigned char *out) {
    const unsigned char *p = in;
    unsigned char *o = out;
    while (p < in + n) {
        if (*p != 0xFF) {
            *o++ = *p++;
        } else if (p[1] == 0xFF) {
            *o++ = 0xFF;
            p += 2;
        } else {
            int len = p[1] + 3;
            memset(o, p[2], (size_t)len);
            o += len;
            p += 3;
        }
    }
    return (size_t)(o - out);
}

/* LZ: tokens are [flag][...]: flag 0 -> one literal byte; flag 1 -> offset (2 bytes), length (1 byte). */
static size_t lz_encode(const char *in, size_t n, unsigned char *out, int *matches) {
    size_t i = 0, o = 0;
    *matches = 0;
    while (i < n) {
        size_t best_len = 0, best_off = 0;
        size_t start = i > 4096 ? i - 4096 : 0;
        for (size_t j = start; j < i; j++) {
            size_t len = 0;
            while (i + len < n && len < 255 && in[j + len] == in[i + len]) len++;
            if (len > best_len) {
                best_len = len;
                best_off = i - j;
            }
        }
        if (best_len >= 4) {
            out[o++] = 1;
            out[o++] = (unsigned char)(best_off >> 8);
            out[o++] = (unsigned char)(best_off & 0xFF);
            out[o++] = (unsigned char)best_len;
            i += best_len;
            ++*matches;
        } else {
            out[o++] = 0;
            out[o++] = (unsigned char)in[i++];
        }
    }
    return o;
}

static size_t lz_decode(const unsigned char *in, size_t n, char *out) {
    const unsigned char *p = in;
    char *o = out;
    while (p < in + n) {
        if (*p++ == 0) {
            *o++ = (char)*p++;
        } else {
            size_t off = (size_t)p[0] << 8 | p[1];
            size_t len = p[2];
            p += 3;
            const char *src = o - off;
            while (len-- > 0) *o++ = *src++; /* may overlap the bytes being written */
        }
    }
    return (size_t)(o - out);
}

static unsigned sum(const void *buf, size_t n) {
    const unsigned char *b = buf;
    unsigned h = 0;
    for (size_t i = 0; i < n; i++) h = (h << 5) + h + b[i];
    return h;
}

int main(void) {
    static unsigned char raw[2048], packed[4096], unpacked[2048];
    size_t n = 0;
    for (int blk = 0; blk < 40; blk++) {
        int len = 1 + (blk * 7) % 23;
        unsigned char v = (unsigned char)(blk % 5 == 0 ? 0xFF : 'a' + blk % 26);
        for (int k = 0; k < len; k++) raw[n++] = v;
        raw[n++] = (unsigned char)('0' + blk % 10);
    }
    size_t pk = rle_encode(raw, n, packed);
    size_t un = rle_decode(packed, pk, unpacked);
    printf("rle: %zu -> %zu -> %zu, equal %d, sums %u %u\n", n, pk, un, un == n && memcmp(raw, unpacked, n) == 0,
           sum(raw, n), sum(packed, pk));

    static char text[4096], back[4096];
    const char *phrases[] = {"the quick brown fox ", "jumps over ", "the lazy dog ", "and the quick cat "};
    size_t tn = 0;
    for (int k = 0; k < 60; k++) {
        const char *ph = phrases[(k * k + k / 3) % 4];
        strcpy(text + tn, ph);
        tn += strlen(ph);
    }
    memset(text + tn, 'z', 300);
    tn += 300;
    text[tn] = '\0';
    int matches;
    size_t lz = lz_encode(text, tn, packed, &matches);
    size_t ln = lz_decode(packed, lz, back);
    printf("lz: %zu -> %zu (%d matches, %.1f%%) -> %zu, equal %d\n", tn, lz, matches, 100.0 * (double)lz / (double)tn,
           ln, ln == tn && memcmp(text, back, tn) == 0);
    back[ln] = '\0';
    printf("tail: %.12s...%s\n", back + 40, back + ln - 5);
    printf("sum %u\n", sum(packed, lz));
    return matches % 100;
}
