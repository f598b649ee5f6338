/* sorts.c - bubble sort, insertion sort and binary insertion sort.

   Algorithms: three stable quadratic sorts of (key, tag) records kept in two
   parallel arrays:
   - bubble sort with early exit: each pass remembers where its last swap
     happened, the next pass stops there, and a pass without swaps ends the
     sort;
   - straight insertion sort: shifts larger keys right until the hole is
     where the new record belongs;
   - binary insertion sort: finds the insertion point by a binary search
     (upper bound, to stay stable), then shifts the block right.
   The number of swaps of bubble sort and of moves of both insertion sorts
   must all equal the number of inversions of the input, which is counted
   independently by a merge-based count; the three outputs must be identical,
   ascending, stable (equal keys keep their tags in increasing order), and
   hold the same multiset of keys (sum and xor checks).

   Data: arrays of 1000-1900 keys from a 32-bit LCG in six shapes: random,
   reversed, already sorted, nearly sorted (a few random swaps), many
   duplicates (keys 0..9), and "organ pipe" (ascending then descending).

   Control flow for path profiling: nested loops throughout; bubble sort's
   inner loop has a data-dependent swap branch and the outer loop an early
   exit; insertion sort's inner loop has a data-dependent trip count (zero for
   sorted input, long for reversed); binary insertion has a search loop with a
   two-way branch followed by a shift loop; the check loops have rare-failure
   branches; the generator switches on the input shape, so one shape's paths
   dominate each phase.

   Loop-heavy: yes (quadratic inner loops). */
#include <stdio.h>

unsigned rng_state = 4242u;

unsigned next_random(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 4;
}

int original_keys[1900];
int keys[3][1900];
int tags[3][1900];
int merge_buffer[1900];
int count_keys[1900];

long bubble_sort(int k[], int t[], int n) {
    long swaps = 0;
    int limit = n - 1;
    while (limit > 0) {
        int last_swap = 0;
        for (int i = 0; i < limit; i++) {
            if (k[i] > k[i + 1]) {
                int tk = k[i], tt = t[i];
                k[i] = k[i + 1];
                t[i] = t[i + 1];
                k[i + 1] = tk;
                t[i + 1] = tt;
                last_swap = i;
                swaps++;
            }
        }
        limit = last_swap; /* everything after the last swap is in place */
    }
    return swaps;
}

long insertion_sort(int k[], int t[], int n) {
    long moves = 0;
    for (int i = 1; i < n; i++) {
        int key = k[i], tag = t[i];
        int j = i - 1;
        while (j >= 0 && k[j] > key) {
            k[j + 1] = k[j];
            t[j + 1] = t[j];
            j--;
            moves++;
        }
        k[j + 1] = key;
        t[j + 1] = tag;
    }
    return moves;
}

long binary_insertion_sort(int k[], int t[], int n) {
    long moves = 0;
    for (int i = 1; i < n; i++) {
        int key = k[i], tag = t[i];
        if (k[i - 1] <= key)
            continue; /* already in place */
        /* First position in [0, i) whose key is greater than key. */
        int lo = 0, hi = i - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (k[mid] <= key)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int j = i; j > lo; j--) {
            k[j] = k[j - 1];
            t[j] = t[j - 1];
        }
        moves += i - lo;
        k[lo] = key;
        t[lo] = tag;
    }
    return moves;
}

/* Inversions of count_keys[lo..hi) by merge sort (sorts it as a side effect). */
long count_inversions(int lo, int hi) {
    if (hi - lo < 2)
        return 0;
    int mid = (lo + hi) / 2;
    long inversions = count_inversions(lo, mid) + count_inversions(mid, hi);
    int i = lo, j = mid, out = lo;
    while (i < mid && j < hi) {
        if (count_keys[i] <= count_keys[j]) {
            merge_buffer[out++] = count_keys[i++];
        } else {
            inversions += mid - i; /* every remaining left key is larger */
            merge_buffer[out++] = count_keys[j++];
        }
    }
    while (i < mid)
        merge_buffer[out++] = count_keys[i++];
    while (j < hi)
        merge_buffer[out++] = count_keys[j++];
    for (int p = lo; p < hi; p++)
        count_keys[p] = merge_buffer[p];
    return inversions;
}

void generate(int shape, int n) {
    for (int i = 0; i < n; i++) {
        unsigned r = next_random();
        switch (shape) {
        case 0:
            original_keys[i] = (int)(r % 100000u);
            break;
        case 1:
            original_keys[i] = (n - i) * 7;
            break;
        case 2:
            original_keys[i] = i * 3 + (int)(r % 3u);
            break;
        case 3:
            original_keys[i] = i;
            break;
        case 4:
            original_keys[i] = (int)(r % 10u);
            break;
        default:
            original_keys[i] = i < n / 2 ? i : n - i;
            break;
        }
    }
    if (shape == 3) {
        for (int s = 0; s < n / 40; s++) {
            int a = (int)(next_random() % (unsigned)n), b = (int)(next_random() % (unsigned)n);
            int t = original_keys[a];
            original_keys[a] = original_keys[b];
            original_keys[b] = t;
        }
    }
}

int main(void) {
    int failures = 0;
    unsigned digest = 0u;
    for (int round = 0; round < 3; round++) {
        for (int shape = 0; shape < 6; shape++) {
            int n = 1000 + (round * 6 + shape) * 53 % 900;
            generate(shape, n);
            long key_sum = 0;
            int key_xor = 0;
            for (int i = 0; i < n; i++) {
                for (int s = 0; s < 3; s++) {
                    keys[s][i] = original_keys[i];
                    tags[s][i] = i;
                }
                count_keys[i] = original_keys[i];
                key_sum += original_keys[i];
                key_xor ^= original_keys[i];
            }
            long inversions = count_inversions(0, n);
            long bubble = bubble_sort(keys[0], tags[0], n);
            long insertion = insertion_sort(keys[1], tags[1], n);
            long binary = binary_insertion_sort(keys[2], tags[2], n);
            int ordered = 1, stable = 1, same = 1;
            long sum = 0;
            int x = 0;
            for (int i = 0; i < n; i++) {
                if (i > 0 && keys[0][i - 1] > keys[0][i])
                    ordered = 0;
                if (i > 0 && keys[0][i - 1] == keys[0][i] && tags[0][i - 1] > tags[0][i])
                    stable = 0;
                for (int s = 1; s < 3; s++)
                    if (keys[s][i] != keys[0][i] || tags[s][i] != tags[0][i])
                        same = 0;
                if (keys[0][i] != count_keys[i])
                    same = 0;
                sum += keys[0][i];
                x ^= keys[0][i];
                digest = digest * 31u + (unsigned)(keys[0][i] ^ tags[0][i]);
            }
            int ok = ordered && stable && same && sum == key_sum && x == key_xor &&
                     bubble == inversions && insertion == inversions && binary == inversions;
            if (!ok)
                failures++;
            printf("round %d shape %d n=%4d: inversions %6ld swaps %6ld moves %6ld %6ld "
                   "median %5d ok %d\n",
                   round, shape, n, inversions, bubble, insertion, binary, keys[0][n / 2], ok);
        }
    }
    printf("digest %08x failures %d\n", digest, failures);
    return failures == 0 ? 0 : 1;
}
