/* Running statistics. `count` and `bucket` are private to this file
   (geometry.c has its own static `count`). */
#include <stdio.h>
#include "shapes.h"
#include "shapes.h"

int samples;
long total = 0;
static int count = 0;
static int buckets[10];

static int bucket(int value) {
    int b = value % 10;
    if (b < 0)
        b = -b;
    return b;
}

void record(int value) {
    samples++;
    count++;
    total += value;
    buckets[bucket(value)]++;
}

double mean(void) {
    if (samples == 0)
        return 0.0;
    return (double)total / samples;
}

int histogram_peak(void) {
    int best = 0;
    for (int i = 1; i < 10; i++) {
        if (buckets[i] > buckets[best])
            best = i;
    }
    printf("stats: %d values recorded here, peak bucket %d (%d values)\n", count, best,
           buckets[best]);
    return best;
}
