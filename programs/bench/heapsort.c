/*
 * heapsort.c - benchmark: heapsort of large generated arrays.
 *
 * Algorithm: arrays of unsigned keys and of doubles are filled by a 32-bit
 * linear congruential generator (uniform, then with many duplicates, then
 * nearly sorted), sorted in place by heapsort (build a max-heap bottom-up,
 * then repeatedly swap the root to the end and sift down), and checked:
 * the result must be ascending and have the same sum/xor as the input.
 *
 * Control flow for path profiling:
 *   - sift_down is a separate function called from two loops (heap building
 *     and extraction), so most time is in a loop inside a callee invoked
 *     from a loop: calls in loops, two levels of loops across a call.
 *   - the sift-down loop body has a data-dependent branch (which child is
 *     larger) and an early exit (the element has found its place), so
 *     consecutive iterations take different paths irregularly.
 *   - the nearly-sorted input makes the early-exit path frequent, the
 *     random input makes full descents frequent.
 *
 * Loop-heavy: yes (nearly all time in the sift-down loop).
 */
#include <stdio.h>

unsigned rng_state = 12345u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state;
}

unsigned keys[250000];
double values[120000];

/* Restore the max-heap property below position root in keys[0..count). */
void sift_down_keys(unsigned a[], int root, int count) {
    unsigned moving = a[root];
    int parent = root;
    for (;;) {
        int child = 2 * parent + 1;
        if (child >= count)
            break;
        if (child + 1 < count && a[child + 1] > a[child])
            child++;
        if (a[child] <= moving)
            break;
        a[parent] = a[child];
        parent = child;
    }
    a[parent] = moving;
}

void heapsort_keys(unsigned a[], int count) {
    for (int start = count / 2 - 1; start >= 0; start--)
        sift_down_keys(a, start, count);
    for (int end = count - 1; end > 0; end--) {
        unsigned top = a[0];
        a[0] = a[end];
        a[end] = top;
        sift_down_keys(a, 0, end);
    }
}

void sift_down_values(double a[], int root, int count) {
    double moving = a[root];
    int parent = root;
    int child = 2 * parent + 1;
    while (child < count) {
        if (child + 1 < count && a[child + 1] > a[child])
            child++;
        if (a[child] <= moving)
            break;
        a[parent] = a[child];
        parent = child;
        child = 2 * parent + 1;
    }
    a[parent] = moving;
}

void heapsort_values(double a[], int count) {
    for (int start = count / 2 - 1; start >= 0; start--)
        sift_down_values(a, start, count);
    for (int end = count - 1; end > 0; end--) {
        double top = a[0];
        a[0] = a[end];
        a[end] = top;
        sift_down_values(a, 0, end);
    }
}

/* Fill keys according to a pattern: 0 uniform, 1 few distinct values,
   2 nearly sorted (ascending with occasional random swaps). */
void fill_keys(unsigned a[], int count, int pattern) {
    for (int i = 0; i < count; i++) {
        unsigned r = next_random();
        if (pattern == 0)
            a[i] = r;
        else if (pattern == 1)
            a[i] = (r >> 16) % 97u;
        else
            a[i] = (unsigned)i * 7u;
    }
    if (pattern == 2) {
        for (int k = 0; k < count / 50; k++) {
            int i = (int)((next_random() >> 8) % (unsigned)count);
            int j = (int)((next_random() >> 8) % (unsigned)count);
            unsigned t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}

int keys_sorted(const unsigned a[], int count) {
    for (int i = 1; i < count; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

unsigned keys_digest(const unsigned a[], int count) {
    unsigned sum = 0;
    for (int i = 0; i < count; i++)
        sum += a[i] ^ (a[i] >> 7);
    return sum;
}

int main(void) {
    int key_count = 250000;
    int value_count = 120000;

    for (int pattern = 0; pattern < 3; pattern++) {
        fill_keys(keys, key_count, pattern);
        unsigned before = keys_digest(keys, key_count);
        heapsort_keys(keys, key_count);
        unsigned after = keys_digest(keys, key_count);
        printf("keys pattern %d: sorted=%d digest kept=%d min=%u median=%u max=%u\n",
               pattern, keys_sorted(keys, key_count), before == after,
               keys[0], keys[key_count / 2], keys[key_count - 1]);
    }

    double total_before = 0.0;
    for (int i = 0; i < value_count; i++) {
        values[i] = (double)(next_random() >> 8) / 16777216.0 * 1000.0 - 500.0;
        total_before += values[i];
    }
    heapsort_values(values, value_count);
    int ordered = 1;
    double total_after = 0.0;
    for (int i = 0; i < value_count; i++) {
        if (i > 0 && values[i - 1] > values[i])
            ordered = 0;
        total_after += values[i];
    }
    printf("values: sorted=%d sum before %.6f after %.6f\n", ordered, total_before,
           total_after);
    printf("values: min %.6f q1 %.6f median %.6f max %.6f\n", values[0],
           values[value_count / 4], values[value_count / 2], values[value_count - 1]);
    return 0;
}
