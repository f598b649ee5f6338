/*
 * strsearch.c - benchmark: exact string matching, three ways.
 *
 * Algorithms: counting all (possibly overlapping) occurrences of a pattern
 * in a text with
 *   - the naive algorithm: try every shift, compare left to right, stop at
 *     the first mismatch;
 *   - Knuth-Morris-Pratt: a failure function (longest proper border of
 *     every prefix) built per pattern, then a scan that never moves back in
 *     the text, falling back through the borders on a mismatch;
 *   - Boyer-Moore-Horspool: a bad-character shift table over the alphabet,
 *     comparing the window right to left and shifting by the table entry
 *     of the window's last character.
 * For every pattern the three counts and the sums of match positions must
 * agree.  Data: two texts from a fixed-seed LCG, a DNA-like one over
 * "acgt" with repeated motifs and an English-like one made of words from a
 * generated vocabulary; patterns are cut out of the text (so they occur)
 * or random (mostly absent), of lengths 2 to 24.
 *
 * Control flow for path profiling:
 *   - each algorithm is a loop over the text with an inner comparison loop
 *     whose trip count depends on the data (usually 0-2 iterations, long
 *     for matches and for the repetitive DNA text);
 *   - the KMP scan has a nested fallback loop (while mismatch and j > 0)
 *     and a match branch that resets through the failure function;
 *   - BMH's shift varies with the character under the window's end, so the
 *     outer loop's paths follow the text;
 *   - the drivers call the three searches per pattern (calls in loops), and
 *     the text generators switch on random choices.
 *
 * Loop-heavy: yes (nearly all time in the scan and comparison loops).
 */
#include <stdio.h>

char text[120000];
int text_length = 0;
char pattern[24];
int pattern_length = 0;
int failure[24];
int shift[128];
char vocabulary[48][10];
int word_length[48];

unsigned rng_state = 123456789u;

int random_below(int n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    /* scale the whole state to [0, n): the high bits of an LCG are the good ones */
    return (int)((unsigned long)rng_state * (unsigned long)n >> 32);
}

int dna_letter(int k) {
    switch (k) {
    case 0: return 'a';
    case 1: return 'c';
    case 2: return 'g';
    default: return 't';
    }
}

/* DNA-like text: random letters with copies of a few motifs. */
void make_dna_text(int length) {
    char motifs[4][12];
    for (int m = 0; m < 4; m++)
        for (int k = 0; k < 12; k++)
            motifs[m][k] = (char)dna_letter(random_below(4));
    text_length = 0;
    while (text_length < length) {
        if (random_below(24) == 0) {
            int m = random_below(4);
            for (int k = 0; k < 12 && text_length < length; k++)
                text[text_length++] = motifs[m][k];
        } else {
            text[text_length++] = (char)dna_letter(random_below(4));
        }
    }
}

/* English-like text: words of a vocabulary separated by spaces. */
void make_word_text(int length) {
    for (int w = 0; w < 48; w++) {
        word_length[w] = 2 + random_below(8);
        for (int k = 0; k < word_length[w]; k++)
            vocabulary[w][k] = (char)('a' + random_below(13)); /* few letters */
    }
    text_length = 0;
    while (text_length < length) {
        int w = random_below(48);
        if (w >= 24)
            w = random_below(8); /* a few words are very frequent */
        for (int k = 0; k < word_length[w] && text_length < length; k++)
            text[text_length++] = vocabulary[w][k];
        if (text_length < length)
            text[text_length++] = ' ';
    }
}

/* Picks the next pattern: a piece of the text, or random letters. */
void choose_pattern(int dna) {
    pattern_length = 2 + random_below(23);
    if (random_below(3) != 0) {
        int start = random_below(text_length - pattern_length);
        for (int k = 0; k < pattern_length; k++)
            pattern[k] = text[start + k];
    } else {
        for (int k = 0; k < pattern_length; k++)
            pattern[k] = (char)(dna ? dna_letter(random_below(4)) : 'a' + random_below(13));
    }
}

/* Each search returns the number of matches and adds their positions to
   position_sum[0]. */
int search_naive(long position_sum[]) {
    int matches = 0;
    for (int i = 0; i + pattern_length <= text_length; i++) {
        int k = 0;
        while (k < pattern_length && text[i + k] == pattern[k])
            k++;
        if (k == pattern_length) {
            matches++;
            position_sum[0] += i;
        }
    }
    return matches;
}

void build_failure(void) {
    failure[0] = 0;
    int border = 0;
    for (int q = 1; q < pattern_length; q++) {
        while (border > 0 && pattern[q] != pattern[border])
            border = failure[border - 1];
        if (pattern[q] == pattern[border])
            border++;
        failure[q] = border;
    }
}

int search_kmp(long position_sum[]) {
    build_failure();
    int matches = 0, j = 0;
    for (int i = 0; i < text_length; i++) {
        while (j > 0 && text[i] != pattern[j])
            j = failure[j - 1];
        if (text[i] == pattern[j])
            j++;
        if (j == pattern_length) {
            matches++;
            position_sum[0] += i - pattern_length + 1;
            j = failure[j - 1];
        }
    }
    return matches;
}

void build_shift(void) {
    for (int c = 0; c < 128; c++)
        shift[c] = pattern_length;
    for (int k = 0; k < pattern_length - 1; k++)
        shift[(int)pattern[k]] = pattern_length - 1 - k;
}

int search_horspool(long position_sum[]) {
    build_shift();
    int matches = 0;
    int last = pattern_length - 1;
    int i = 0;
    while (i + pattern_length <= text_length) {
        int k = last;
        while (k >= 0 && text[i + k] == pattern[k])
            k--;
        if (k < 0) {
            matches++;
            position_sum[0] += i;
        }
        i += shift[(int)text[i + last]];
    }
    return matches;
}

int main(void) {
    int failures = 0;
    for (int kind = 0; kind < 2; kind++) {
        if (kind == 0)
            make_dna_text(100000);
        else
            make_word_text(120000);
        int patterns = 44;
        long total_matches = 0;
        int disagreements = 0, absent = 0, most = 0;
        unsigned digest = 0;
        for (int p = 0; p < patterns; p++) {
            choose_pattern(kind == 0);
            long sum_naive[1] = {0}, sum_kmp[1] = {0}, sum_bmh[1] = {0};
            int naive = search_naive(sum_naive);
            int kmp = search_kmp(sum_kmp);
            int bmh = search_horspool(sum_bmh);
            if (naive != kmp || naive != bmh || sum_naive[0] != sum_kmp[0] ||
                sum_naive[0] != sum_bmh[0])
                disagreements++;
            total_matches += naive;
            if (naive == 0)
                absent++;
            if (naive > most)
                most = naive;
            digest = digest * 2654435761u + (unsigned)naive + (unsigned)sum_naive[0];
            if (p < 4) {
                printf("  pattern \"");
                for (int k = 0; k < pattern_length; k++)
                    putchar(pattern[k]);
                printf("\": %d matches, position sum %ld\n", naive, sum_naive[0]);
            }
        }
        if (kind == 0)
            printf("dna text");
        else
            printf("word text");
        printf(" (%d chars), %d patterns: %ld matches, %d absent, most %d, digest %08x, "
               "disagreements %d\n",
               text_length, patterns, total_matches, absent, most, digest, disagreements);
        if (disagreements)
            failures++;
    }
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
