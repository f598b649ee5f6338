/* bsearch.c - binary search variants and interpolation search.

   Algorithms, over ascending int arrays:
   - lower_bound: first index whose value is >= key (half-open interval,
     no early exit: always about log2(n) probes);
   - upper_bound: first index whose value is > key;
   - find_exact: classic three-way binary search that stops as soon as it
     hits the key (early exit), -1 if absent;
   - interpolation_search: probes where the key should be if the values were
     evenly spread (64-bit arithmetic, guarded against equal end values),
     falling back to bisection when a probe makes too little progress;
   - gallop_search: exponential search from a hint (the previous answer),
     then binary search inside the bracket found.
   Every query is answered by all of them and cross-checked: find_exact's
   index must hold the key and lie in [lower, upper); the number of copies
   (upper - lower) must be nonzero exactly when the key is found; the
   interpolation and galloping results must agree with lower_bound.

   Data: four sorted arrays of 40000 values built from a 32-bit LCG by
   cumulative gaps: uniform gaps; many duplicates (most gaps zero);
   geometrically growing gaps (skewed: interpolation is slow there); and
   clusters separated by large jumps.  Queries mix present keys, absent keys
   inside the range, keys outside the range, and runs of increasing keys
   (which the galloping search exploits).  Probe counts are printed.

   Control flow for path profiling: search loops whose body is a
   data-dependent three-way (or two-way) comparison, in a query loop that
   calls five short search functions per query; find_exact exits early;
   interpolation search has guard branches (equal ends, key outside,
   progress fallback); the galloping search has two loops in sequence; the
   query generator switches on the query kind, which follows a cyclic
   pattern with random components.

   Loop-heavy: yes (search loops called from the query loop). */
#include <stdio.h>

unsigned rng_state = 8675309u;

unsigned next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

const int SIZE = 40000;
int values[40000];
long probes_lower, probes_exact, probes_interp, probes_gallop;

int lower_bound(const int a[], int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        probes_lower++;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int upper_bound(const int a[], int n, int key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int find_exact(const int a[], int n, int key) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        probes_exact++;
        if (a[mid] == key)
            return mid;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Returns the lower bound of key, like lower_bound. */
int interpolation_search(const int a[], int n, int key) {
    int lo = 0, hi = n - 1;
    if (key <= a[0])
        return 0;
    if (key > a[n - 1])
        return n;
    /* Invariant: a[lo] < key <= a[hi]. */
    while (hi - lo > 1) {
        probes_interp++;
        int pos;
        long span = (long)a[hi] - a[lo];
        if (span == 0) {
            pos = lo + (hi - lo) / 2;
        } else {
            pos = lo + (int)(((long)key - a[lo]) * (hi - lo) / span);
            if (pos <= lo)
                pos = lo + 1;
            else if (pos >= hi)
                pos = hi - 1;
        }
        int width = hi - lo;
        if (a[pos] < key)
            lo = pos;
        else
            hi = pos;
        /* Too little progress (skewed data): take a bisection step. */
        if ((hi - lo) * 8 > width * 7 && hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            probes_interp++;
            if (a[mid] < key)
                lo = mid;
            else
                hi = mid;
        }
    }
    return hi;
}

/* Lower bound found by galloping from hint in the right direction. */
int gallop_search(const int a[], int n, int key, int hint) {
    int lo, hi;
    if (hint >= n)
        hint = n - 1;
    if (a[hint] < key) {
        /* Invariant: a[lo] < key; the answer is above lo. */
        lo = hint;
        int step = 1;
        hi = hint + step;
        while (hi < n && a[hi] < key) {
            probes_gallop++;
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        if (hi > n)
            hi = n;
        lo++;
    } else {
        /* a[hi] >= key; the answer is at or below hi. */
        hi = hint;
        int step = 1;
        lo = hint - step;
        while (lo >= 0 && a[lo] >= key) {
            probes_gallop++;
            hi = lo;
            step *= 2;
            lo = hi - step;
        }
        lo = lo < 0 ? 0 : lo + 1;
    }
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        probes_gallop++;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void build_array(int kind) {
    int v = (int)(next_random() % 1000u);
    for (int i = 0; i < SIZE; i++) {
        unsigned r = next_random();
        int gap;
        if (kind == 0)
            gap = 1 + (int)(r % 100u);
        else if (kind == 1)
            gap = r % 8u == 0u ? (int)(r >> 8) % 50 : 0;
        else if (kind == 2)
            gap = 1 + i * i / 3000000 + (int)(r % (unsigned)(1 + i / 200));
        else
            gap = (i % 500 == 0) ? 100000 + (int)(r % 100000u) : (int)(r % 3u);
        v += gap;
        values[i] = v;
    }
}

int main(void) {
    const int queries = 15000;
    int errors = 0;
    unsigned total = 0u;
    for (int kind = 0; kind < 4; kind++) {
        build_array(kind);
        probes_lower = probes_exact = probes_interp = probes_gallop = 0;
        int found = 0, outside = 0, hint = SIZE / 2, run_key = values[0];
        long copies = 0;
        unsigned digest = 0u;
        for (int round = 0; round < 5; round++) {
            for (int q = 0; q < queries; q++) {
                int key;
                unsigned r = next_random();
                switch ((q / 3) % 6) {
                case 0: case 1: /* a present key */
                    key = values[r % (unsigned)SIZE];
                    break;
                case 2: /* inside the range, probably absent */
                    key = values[0] + (int)(r % (unsigned)(values[SIZE - 1] - values[0] + 1));
                    break;
                case 3: /* outside the range, on either side */
                    key = (r & 1u) ? values[0] - 1 - (int)(r % 50u) : values[SIZE - 1] + 1 + (int)(r % 50u);
                    break;
                default: /* ascending run: near the previous key */
                    run_key += (int)(r % 200u);
                    if (run_key > values[SIZE - 1])
                        run_key = values[0];
                    key = run_key;
                    break;
                }
                int lower = lower_bound(values, SIZE, key);
                int upper = upper_bound(values, SIZE, key);
                int exact = find_exact(values, SIZE, key);
                int interp = interpolation_search(values, SIZE, key);
                int gallop = gallop_search(values, SIZE, key, hint);
                hint = gallop;
                if (exact >= 0) {
                    found++;
                    if (values[exact] != key || exact < lower || exact >= upper)
                        errors++;
                } else if (upper != lower) {
                    errors++;
                }
                if (lower == SIZE || upper == 0)
                    outside++;
                if (interp != lower || gallop != lower)
                    errors++;
                copies += upper - lower;
                digest = digest * 2654435761u + (unsigned)(lower * 3 + upper);
            }
        }
        printf("array %d: last %d found %d outside %d copies %ld digest %08x\n", kind,
               values[SIZE - 1], found, outside, copies, digest);
        printf("  probes: lower %ld exact %ld interpolation %ld gallop %ld\n", probes_lower,
               probes_exact, probes_interp, probes_gallop);
        total ^= digest;
    }
    printf("total %08x errors %d\n", total, errors);
    return errors == 0 ? 0 : 1;
}
