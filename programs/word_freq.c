/* String-free text processing over char arrays: a text is built from
   character codes, split into words, lower-cased, counted in a hash table
   of words stored as offsets, sorted by frequency and printed with putchar. */
#include <stdio.h>

char text[2000];
int text_len = 0;

/* words are stored as (start, length) pairs into the text */
int word_start[400];
int word_len[400];
int word_count[400];
int nwords = 0;
int table[512];

void append_codes(int codes[], int n) {
    for (int i = 0; i < n; i++) text[text_len++] = (char)codes[i];
}

int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

unsigned hash_word(int start, int len) {
    unsigned h = 5381;
    for (int i = 0; i < len; i++) h = h * 33 + (unsigned)lower(text[start + i]);
    return h;
}

int same_word(int s1, int l1, int s2, int l2) {
    if (l1 != l2) return 0;
    for (int i = 0; i < l1; i++)
        if (lower(text[s1 + i]) != lower(text[s2 + i])) return 0;
    return 1;
}

void add_word(int start, int len) {
    unsigned h = hash_word(start, len) % 512;
    while (table[h] != 0) {
        int w = table[h] - 1;
        if (same_word(word_start[w], word_len[w], start, len)) {
            word_count[w]++;
            return;
        }
        h = (h + 1) % 512;
    }
    word_start[nwords] = start;
    word_len[nwords] = len;
    word_count[nwords] = 1;
    nwords++;
    table[h] = nwords;
}

void print_word(int w) {
    for (int i = 0; i < word_len[w]; i++) putchar(lower(text[word_start[w] + i]));
}

/* returns < 0 if word a sorts before b: higher count first, then alphabetical */
int compare(int a, int b) {
    if (word_count[a] != word_count[b]) return word_count[b] - word_count[a];
    int la = word_len[a], lb = word_len[b];
    for (int i = 0; i < la && i < lb; i++) {
        char ca = lower(text[word_start[a] + i]), cb = lower(text[word_start[b] + i]);
        if (ca != cb) return ca - cb;
    }
    return la - lb;
}

int main(void) {
    /* "It was the best of times, it was the worst of times, " */
    int s1[54] = {73, 116, 32, 119, 97, 115, 32, 116, 104, 101, 32, 98, 101, 115, 116, 32, 111, 102,
                  32, 116, 105, 109, 101, 115, 44, 32, 105, 116, 32, 119, 97, 115, 32, 116, 104, 101,
                  32, 119, 111, 114, 115, 116, 32, 111, 102, 32, 116, 105, 109, 101, 115, 44, 32, 10};
    /* "the age of wisdom, the age of foolishness. THE END." */
    int s2[52] = {116, 104, 101, 32, 97, 103, 101, 32, 111, 102, 32, 119, 105, 115, 100, 111, 109, 44,
                  32, 116, 104, 101, 32, 97, 103, 101, 32, 111, 102, 32, 102, 111, 111, 108, 105, 115,
                  104, 110, 101, 115, 115, 46, 32, 84, 72, 69, 32, 69, 78, 68, 46, 10};
    for (int rep = 0; rep < 3; rep++) {
        append_codes(s1, 54);
        append_codes(s2, 52);
    }
    for (int i = 0; i < 106; i++) putchar(text[i]);
    /* statistics */
    int letters = 0, upper = 0, spaces = 0, punct = 0, lines = 0;
    for (int i = 0; i < text_len; i++) {
        char c = text[i];
        if (is_alpha(c)) {
            letters++;
            if (c <= 'Z') upper++;
        } else if (c == ' ') spaces++;
        else if (c == '\n') lines++;
        else punct++;
    }
    printf("chars=%d letters=%d upper=%d spaces=%d punct=%d lines=%d\n", text_len, letters, upper, spaces,
           punct, lines);
    /* split into words */
    int i = 0, total = 0;
    while (i < text_len) {
        while (i < text_len && !is_alpha(text[i])) i++;
        int start = i;
        while (i < text_len && is_alpha(text[i])) i++;
        if (i > start) {
            add_word(start, i - start);
            total++;
        }
    }
    printf("words=%d distinct=%d\n", total, nwords);
    /* sort word indices by (count desc, word asc) with insertion sort */
    int order[400];
    for (int w = 0; w < nwords; w++) order[w] = w;
    for (int a = 1; a < nwords; a++) {
        int v = order[a], b = a - 1;
        while (b >= 0 && compare(order[b], v) > 0) {
            order[b + 1] = order[b];
            b--;
        }
        order[b + 1] = v;
    }
    for (int w = 0; w < nwords; w++) {
        printf("%3d ", word_count[order[w]]);
        print_word(order[w]);
        putchar('\n');
    }
    /* longest word and a reversed copy of it */
    int best = 0;
    for (int w = 1; w < nwords; w++) if (word_len[w] > word_len[best]) best = w;
    printf("longest: ");
    print_word(best);
    printf(" reversed: ");
    for (int k = word_len[best] - 1; k >= 0; k--) putchar(lower(text[word_start[best] + k]));
    putchar('\n');
    /* letter histogram */
    int hist[26] = {0};
    for (int k = 0; k < text_len; k++)
        if (is_alpha(text[k])) hist[lower(text[k]) - 'a']++;
    for (int k = 0; k < 26; k++) {
        if (hist[k] == 0) continue;
        putchar('a' + k);
        printf(" %3d ", hist[k]);
        for (int s = 0; s < hist[k] / 3; s++) putchar('#');
        putchar('\n');
    }
    return 0;
}
