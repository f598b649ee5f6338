/* Simulations driven by linear congruential generators with unsigned and
   unsigned long wrap-around: Monte Carlo estimate of pi, a random walk,
   dice histograms, a card shuffle and a reservoir sample. */
#include <stdio.h>

unsigned long lcg64 = 42;
unsigned lcg32 = 7;

unsigned long next64(void) {
    lcg64 = lcg64 * 6364136223846793005ul + 1442695040888963407ul;
    return lcg64;
}

unsigned next32(void) {
    lcg32 = lcg32 * 214013u + 2531011u;
    return (lcg32 >> 16) & 0x7fffu;
}

double uniform(void) { return (double)(next64() >> 11) / 9007199254740992.0; }

int main(void) {
    int inside = 0, total = 20000;
    for (int i = 0; i < total; i++) {
        double x = uniform(), y = uniform();
        if (x * x + y * y <= 1.0) inside++;
    }
    printf("pi ~ %.6f (%d of %d)\n", 4.0 * inside / total, inside, total);

    long pos = 0, maxpos = 0, minpos = 0;
    int returns = 0;
    for (int step = 0; step < 10000; step++) {
        pos += (next32() & 1) ? 1 : -1;
        if (pos > maxpos) maxpos = pos;
        if (pos < minpos) minpos = pos;
        if (pos == 0) returns++;
    }
    printf("walk: end=%ld max=%ld min=%ld returns=%d\n", pos, maxpos, minpos, returns);

    int hist[13] = {0};
    for (int roll = 0; roll < 6000; roll++) {
        int d1 = (int)(next32() % 6) + 1, d2 = (int)(next32() % 6) + 1;
        hist[d1 + d2]++;
    }
    for (int s = 2; s <= 12; s++) {
        printf("%2d %4d ", s, hist[s]);
        for (int k = 0; k < hist[s] / 25; k++) putchar('*');
        putchar('\n');
    }

    int deck[52];
    for (int i = 0; i < 52; i++) deck[i] = i;
    for (int i = 51; i > 0; i--) {
        int j = (int)(next64() % (unsigned long)(i + 1));
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (int i = 0; i < 13; i++) {
        int card = deck[i];
        int rank = card % 13, suit = card / 13;
        char rc;
        switch (rank) {
        case 0: rc = 'A'; break;
        case 9: rc = 'T'; break;
        case 10: rc = 'J'; break;
        case 11: rc = 'Q'; break;
        case 12: rc = 'K'; break;
        default: rc = (char)('1' + rank);
        }
        putchar(rc);
        putchar(suit == 0 ? 'S' : suit == 1 ? 'H' : suit == 2 ? 'D' : 'C');
        putchar(' ');
    }
    putchar('\n');

    int reservoir[5];
    for (int i = 0; i < 1000; i++) {
        if (i < 5) reservoir[i] = i;
        else {
            unsigned long r = next64() % (unsigned long)(i + 1);
            if (r < 5) reservoir[r] = i;
        }
    }
    printf("reservoir: %d %d %d %d %d\n", reservoir[0], reservoir[1], reservoir[2], reservoir[3], reservoir[4]);
    printf("final states: %lu %u\n", lcg64, lcg32);
    double mean = 0.0, m2 = 0.0;
    for (int i = 1; i <= 5000; i++) {
        double x = uniform();
        double delta = x - mean;
        mean += delta / i;
        m2 += delta * (x - mean);
    }
    printf("uniform mean %.6f variance %.6f\n", mean, m2 / 4999);
    return 0;
}
