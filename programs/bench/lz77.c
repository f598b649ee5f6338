/*
 * lz77.c - benchmark: LZ77 compression with hash chains and lazy matching.
 *
 * Algorithm: a deflate-style LZ77 parser over a 4 KiB sliding window.
 * Every position is inserted into a hash table of 3-byte prefixes whose
 * entries are chained through a `previous` array indexed by position
 * modulo the window, so the candidate matches of a position are found by
 * walking its chain (at most 128 links, stopping early on a match of the
 * maximum length 258).  Lazy matching: after finding a match at p, the
 * parser also looks at p + 1 and, when that match is longer, emits a
 * literal for p and defers.  The tokens (literal bytes and (length,
 * distance) pairs) are stored in arrays, a bit cost is estimated
 * (9 bits per literal, 1 + 8 + 12 per match), and the decompressor rebuilds
 * the data by copying from earlier output (overlapping copies for runs).
 * Each buffer is compressed greedily and lazily; both round trips must
 * give back the input exactly.
 * Data: buffers from a fixed-seed LCG in four styles: text made of words
 * from a generated vocabulary, with punctuation; runs of repeated bytes;
 * a repetitive "log file" of records with changing numbers; and nearly
 * random bytes (hard to compress).
 *
 * Control flow for path profiling:
 *   - the parser's main loop has a two-level structure (match or literal,
 *     then the lazy decision) with data-dependent branches;
 *   - the match finder walks a hash chain (loop with three exits: chain
 *     end, too far back, maximum length found) and, per candidate, a
 *     byte-comparison loop whose length depends on the data;
 *   - the decompressor's loop branches on the token kind and runs an inner
 *     copy loop of the match length;
 *   - the data generator switches on the style and on random choices.
 *
 * Loop-heavy: yes (nearly all time in the chain walk and compare loops).
 */
#include <stdio.h>

int input[65536];
int restored[65536];
int token_length[65536]; /* 0 for a literal */
int token_value[65536];  /* literal byte, or match distance */
int hash_head[4096];
int previous[4096];
int vocabulary[64][8];
int word_size[64];

unsigned rng_state = 31337u;

unsigned next_random(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) & 0x7FFFu;
}

/* ---------- data ---------- */

void make_vocabulary(void) {
    for (int w = 0; w < 64; w++) {
        word_size[w] = 2 + (int)(next_random() % 7u);
        for (int c = 0; c < word_size[w]; c++)
            vocabulary[w][c] = 'a' + (int)(next_random() % 26u);
    }
}

/* Fills input[0..length) in a style: 0 text, 1 runs, 2 log records,
   3 nearly random. */
void generate(int length, int style) {
    int n = 0, record = 0;
    while (n < length) {
        switch (style) {
        case 0: { /* a word (frequent words are the low-numbered ones) */
            int w = (int)(next_random() % 64u);
            if (next_random() % 2u == 0u)
                w /= 4;
            for (int c = 0; c < word_size[w] && n < length; c++)
                input[n++] = vocabulary[w][c];
            if (n < length)
                input[n++] = next_random() % 12u == 0u ? '.' : ' ';
            break;
        }
        case 1: { /* a run of one byte */
            int byte = (int)(next_random() % 8u) + 'A';
            int run = 1 + (int)(next_random() % 40u);
            for (int i = 0; i < run && n < length; i++)
                input[n++] = byte;
            break;
        }
        case 2: { /* "id=NNNN status=ok\n" records with changing numbers */
            int fields[18] = {'i', 'd', '=', 0, 0, 0, 0, ' ', 's', 't', 'a', 't', 'u', 's',
                              '=', 'o', 'k', '\n'};
            int id = record * 7 + (int)(next_random() % 5u);
            for (int d = 6; d >= 3; d--) {
                fields[d] = '0' + id % 10;
                id /= 10;
            }
            if (next_random() % 10u == 0u) {
                fields[15] = 'n';
                fields[16] = 'o';
            }
            for (int i = 0; i < 18 && n < length; i++)
                input[n++] = fields[i];
            record++;
            break;
        }
        default: { /* random bytes, skewed towards few set bits */
            int a = (int)(next_random() % 256u);
            int b = (int)(next_random() % 256u);
            input[n++] = a & b;
            break;
        }
        }
    }
}

/* ---------- compressor ---------- */

int hash3(int p) {
    return ((input[p] << 8) ^ (input[p + 1] << 4) ^ input[p + 2]) & 4095;
}

void insert_position(int p, int length) {
    if (p + 2 >= length)
        return;
    int h = hash3(p);
    previous[p & 4095] = hash_head[h];
    hash_head[h] = p;
}

/* Longest match for position p among its hash chain; the distance goes to
   best_distance[0].  Candidates are earlier positions, at most 4095 back. */
int longest_match(int p, int length, int best_distance[]) {
    int best = 0;
    int limit = length - p < 258 ? length - p : 258;
    if (limit < 3)
        return 0;
    int candidate = hash_head[hash3(p)];
    for (int links = 0; links < 128 && candidate >= 0; links++) {
        if (p - candidate > 4095 || candidate >= p)
            break;
        /* quick reject: the byte that would extend the best match */
        if (input[candidate + best] == input[p + best]) {
            int k = 0;
            while (k < limit && input[candidate + k] == input[p + k])
                k++;
            if (k > best) {
                best = k;
                best_distance[0] = p - candidate;
                if (k == limit)
                    break;
            }
        }
        candidate = previous[candidate & 4095];
    }
    return best >= 3 ? best : 0;
}

/* Compresses input[0..length) into the token arrays, with or without lazy
   matching; returns the token count. */
int compress(int length, int lazy) {
    for (int h = 0; h < 4096; h++)
        hash_head[h] = -1;
    int tokens = 0;
    int p = 0;
    int distance[1], lazy_distance[1];
    while (p < length) {
        int match = longest_match(p, length, distance);
        insert_position(p, length);
        if (lazy && match > 0 && match < 32 && p + 1 < length) {
            /* lazy evaluation: a longer match one byte later wins */
            int next = longest_match(p + 1, length, lazy_distance);
            if (next > match) {
                token_length[tokens] = 0;
                token_value[tokens++] = input[p];
                p++;
                match = next;
                distance[0] = lazy_distance[0];
                insert_position(p, length);
            }
        }
        if (match == 0) {
            token_length[tokens] = 0;
            token_value[tokens++] = input[p];
            p++;
        } else {
            token_length[tokens] = match;
            token_value[tokens++] = distance[0];
            for (int i = 1; i < match; i++)
                insert_position(p + i, length);
            p += match;
        }
    }
    return tokens;
}

/* Rebuilds the data from the tokens; returns its length. */
int decompress(int tokens) {
    int n = 0;
    for (int t = 0; t < tokens; t++) {
        if (token_length[t] == 0) {
            restored[n++] = token_value[t];
        } else {
            int from = n - token_value[t];
            for (int i = 0; i < token_length[t]; i++)
                restored[n++] = restored[from + i]; /* may overlap: runs */
        }
    }
    return n;
}

int main(void) {
    int failures = 0;
    long total_in = 0, total_bits = 0;
    make_vocabulary();
    for (int round = 0; round < 5; round++) {
        for (int style = 0; style < 4; style++) {
            int length = 65536 - 4096 * round - 1000 * style;
            generate(length, style);
            int greedy_tokens = compress(length, 0);
            int greedy_ok = decompress(greedy_tokens) == length;
            for (int i = 0; i < length && greedy_ok; i++)
                if (restored[i] != input[i])
                    greedy_ok = 0;
            int tokens = compress(length, 1);
            long bits = 0;
            int matches = 0, longest = 0;
            unsigned digest = 0;
            for (int t = 0; t < tokens; t++) {
                if (token_length[t] == 0) {
                    bits += 9;
                } else {
                    bits += 21;
                    matches++;
                    if (token_length[t] > longest)
                        longest = token_length[t];
                }
                digest = digest * 31u + (unsigned)(token_length[t] * 4096 + token_value[t]);
            }
            int restored_length = decompress(tokens);
            int same = restored_length == length && greedy_ok;
            for (int i = 0; i < length && same; i++)
                if (restored[i] != input[i])
                    same = 0;
            if (!same)
                failures++;
            total_in += length;
            total_bits += bits;
            printf("round %d style %d: %5d bytes -> greedy %5d, lazy %5d tokens (%5d matches, "
                   "longest %3d), %5ld bytes, ratio %.3f, digest %08x, round trips %d\n",
                   round, style, length, greedy_tokens, tokens, matches, longest,
                   (bits + 7) / 8, (double)bits / 8.0 / (double)length, digest, same);
        }
    }
    printf("total %ld bytes -> %ld bytes, failures %d\n", total_in, (total_bits + 7) / 8,
           failures);
    return failures == 0 ? 0 : 1;
}
