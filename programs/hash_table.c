/* Open-addressing hash table with long keys, linear probing, deletion with
   tombstones and rehash-free reuse; checked against a brute-force array. */
#include <stdio.h>

long keys[1024];
int vals[1024];
char state[1024]; /* 0 empty, 1 full, 2 deleted */
int size = 0, probes = 0;

unsigned long mix(long k) {
    unsigned long x = (unsigned long)k;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdul;
    x ^= x >> 33;
    return x;
}

int find_slot(long k) {
    unsigned long i = mix(k) & 1023;
    for (int n = 0; n < 1024; n++) {
        probes++;
        if (state[i] == 0) return -1;
        if (state[i] == 1 && keys[i] == k) return (int)i;
        i = (i + 1) & 1023;
    }
    return -1;
}

void put(long k, int v) {
    int s = find_slot(k);
    if (s >= 0) {
        vals[s] = v;
        return;
    }
    unsigned long i = mix(k) & 1023;
    while (state[i] == 1) i = (i + 1) & 1023;
    keys[i] = k;
    vals[i] = v;
    state[i] = 1;
    size++;
}

int get(long k, int dflt) {
    int s = find_slot(k);
    return s >= 0 ? vals[s] : dflt;
}

int del(long k) {
    int s = find_slot(k);
    if (s < 0) return 0;
    state[s] = 2;
    size--;
    return 1;
}

long ref_keys[700];
int ref_vals[700];
int ref_n = 0;

int ref_index(long k) {
    for (int i = 0; i < ref_n; i++)
        if (ref_keys[i] == k) return i;
    return -1;
}

int main(void) {
    unsigned long rng = 1;
    int mismatches = 0;
    for (int op = 0; op < 3000; op++) {
        rng = rng * 2862933555777941757ul + 3037000493ul;
        long k = (long)(rng >> 54) * 1000003L - 500000000L;
        int kind = (int)((rng >> 20) % 10);
        int ri = ref_index(k);
        if (kind < 5) {
            int v = (int)(rng >> 40);
            put(k, v);
            if (ri >= 0) ref_vals[ri] = v;
            else if (ref_n < 700) {
                ref_keys[ref_n] = k;
                ref_vals[ref_n++] = v;
            }
        } else if (kind < 8) {
            int got = get(k, -1);
            int want = ri >= 0 ? ref_vals[ri] : -1;
            if (got != want) mismatches++;
        } else {
            int d = del(k);
            if (d != (ri >= 0)) mismatches++;
            if (ri >= 0) {
                ref_keys[ri] = ref_keys[ref_n - 1];
                ref_vals[ri] = ref_vals[ref_n - 1];
                ref_n--;
            }
        }
        if (op % 500 == 499) printf("op %d: size=%d ref=%d probes=%d mismatches=%d\n", op + 1, size, ref_n, probes, mismatches);
    }
    long sum = 0;
    for (int i = 0; i < 1024; i++)
        if (state[i] == 1) sum += keys[i] % 1000 + vals[i];
    printf("checksum = %ld\n", sum);
    return mismatches;
}
