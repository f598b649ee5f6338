/* Twin benchmark: string processing with char* loops: sprintf/strcpy/strcat text generation, tokenizing, strlen/strcmp/strchr, reversal, rot13, replace, sentences. */
#include <stdio.h>
#include <string.h>

#define WORDS 3000
#define ROUNDS 80

typedef struct {
    int tokens, letters, vowels, digits, caps, palins, hash;
    int first[26];
    char longest[32];
    char minw[32];
    char maxw[32];
} Stats;

static char text[65536];
static char work[65536];
static unsigned seed = 99;

static int rnd(int m) {
    seed = seed * 1664525u + 1013904223u;
    return (int)((seed >> 8) % (unsigned)m);
}

static const char *const syllables[16] = {
    "ka", "lo", "mi", "a", "ru", "sa", "ti", "vo", "ba", "de", "o", "gu", "ana", "ja", "pe", "zu"
};

static int generate(char *out, int words) {
    char *p = out;
    for (int w = 0; w < words; w++) {
        char word[24];
        word[0] = '\0';
        int nsyl = 1 + rnd(3);
        for (int s = 0; s < nsyl; s++) strcat(word, syllables[rnd(16)]);
        if (rnd(8) == 0) sprintf(word + strlen(word), "%d", rnd(100));
        if (rnd(5) == 0) word[0] = (char)(word[0] - 32);
        strcpy(p, word);
        p += strlen(word);
        int r = rnd(12);
        const char *sep = r == 0 ? ", " : r == 1 ? ". " : " ";
        strcpy(p, sep);
        p += strlen(sep);
    }
    *p = '\0';
    return (int)(p - out);
}

static int is_sep(char c) {
    return c != '\0' && strchr(" ,.", c) != NULL;
}

static void reverse(char *s) {
    char *a = s, *b = s + strlen(s) - 1;
    while (a < b) {
        char t = *a;
        *a++ = *b;
        *b-- = t;
    }
}

static void analyze(const char *s, Stats *st) {
    char tok[32], orig[32];
    const char *p = s;
    memset(st, 0, sizeof *st);
    while (*p != '\0') {
        while (is_sep(*p)) p++;
        if (*p == '\0') break;
        char *t = tok;
        while (*p != '\0' && !is_sep(*p)) *t++ = *p++;
        *t = '\0';
        int len = (int)strlen(tok);
        st->tokens++;
        st->letters += len;
        for (const char *q = tok; *q != '\0'; q++) {
            if (strchr("aeiouAEIOU", *q) != NULL) st->vowels++;
            if (*q >= '0' && *q <= '9') st->digits++;
        }
        if (tok[0] >= 'A' && tok[0] <= 'Z') {
            st->caps++;
            st->first[tok[0] - 'A']++;
        } else if (tok[0] >= 'a' && tok[0] <= 'z') {
            st->first[tok[0] - 'a']++;
        }
        if (len > (int)strlen(st->longest)) strcpy(st->longest, tok);
        if (st->tokens == 1 || strcmp(tok, st->minw) < 0) strcpy(st->minw, tok);
        if (st->tokens == 1 || strcmp(tok, st->maxw) > 0) strcpy(st->maxw, tok);
        strcpy(orig, tok);
        reverse(tok);
        if (strcmp(orig, tok) == 0) st->palins++;
        for (const char *q = tok; *q != '\0'; q++)
            st->hash = (st->hash * 31 + (unsigned char)*q) % 1000003;
    }
}

static int replace_ka(char *s) {
    int n = 0;
    for (char *p = s; *p != '\0'; p++) {
        if (strncmp(p, "ka", 2) == 0) {
            p[0] = 'K';
            p[1] = 'A';
            n++;
        }
    }
    return n;
}

static void rot13(char *s) {
    for (; *s != '\0'; s++) {
        char c = *s;
        if (c >= 'a' && c <= 'z') *s = (char)('a' + (c - 'a' + 13) % 26);
        else if (c >= 'A' && c <= 'Z') *s = (char)('A' + (c - 'A' + 13) % 26);
    }
}

static int hash_str(const char *s) {
    int h = 0;
    while (*s != '\0') h = (h * 31 + (unsigned char)*s++) % 1000003;
    return h;
}

int main(void) {
    long total_len = 0, total_tokens = 0, total_line = 0;
    int total_a = 0, total_ka = 0, total_sent = 0, mix = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int len = generate(text, WORDS);
        Stats st;
        analyze(text, &st);
        int count_a = 0;
        for (const char *q = strchr(text, 'a'); q != NULL; q = strchr(q + 1, 'a')) count_a++;
        int sentences = 0, longest_sentence = 0;
        const char *start = text;
        for (const char *dot = strchr(start, '.'); dot != NULL; dot = strchr(start, '.')) {
            int l = (int)(dot - start);
            if (l > longest_sentence) longest_sentence = l;
            sentences++;
            start = dot + 1;
        }
        strcpy(work, text);
        int ka = replace_ka(work);
        rot13(work);
        int h = hash_str(work);
        char line[160];
        int n = sprintf(line, "%d/%d/%s/%s/%s", st.tokens, st.vowels, st.minw, st.maxw, st.longest);
        total_len += len;
        total_tokens += st.tokens;
        total_line += n;
        total_a += count_a;
        total_ka += ka;
        total_sent += sentences;
        for (int k = 0; k < 26; k++) mix = (mix * 7 + st.first[k]) % 1000003;
        if (r % 20 == 0) {
            printf("round %d: len %d %s (%d chars)\n", r, len, line, n);
            printf("  letters %d digits %d caps %d palins %d hash %d a %d ka %d sent %d/%d rot %d\n",
                   st.letters, st.digits, st.caps, st.palins, st.hash, count_a, ka, sentences,
                   longest_sentence, h);
        }
    }
    printf("totals len %ld tokens %ld line %ld a %d ka %d sentences %d mix %d seed %u\n",
           total_len, total_tokens, total_line, total_a, total_ka, total_sent, mix, seed);
    return 0;
}
