/* Benchmark: many small function calls in a loop (call/return overhead),
   with an array parameter and a double accumulator. */
#include <stdio.h>

int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

double weight(int i) { return (i % 7) * 0.5 + 1.0; }

int lookup(int table[], int i) { return table[i & 63]; }

int main(void) {
    int table[64];
    for (int i = 0; i < 64; i++) table[i] = (i * 37) % 101 - 50;
    long s = 0;
    double ws = 0.0;
    for (int i = 0; i < 30000; i++) {
        int v = lookup(table, i) * 3;
        s += clamp(v, -100, 100);
        ws += weight(i) * clamp(v, -20, 20);
    }
    printf("s=%ld ws=%.3f\n", s, ws);
    return 0;
}
