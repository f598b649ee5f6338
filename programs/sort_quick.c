/* Quicksort (Lomuto and Hoare partitions) over LCG-generated data, checked
   against insertion sort; prints samples and checksums. */
#include <stdio.h>

unsigned seed = 12345u;

unsigned next_rand(void) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
}

void swap(int a[], int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

int partition_lomuto(int a[], int lo, int hi) {
    int pivot = a[hi];
    int i = lo;
    for (int j = lo; j < hi; j++) {
        if (a[j] < pivot) {
            swap(a, i, j);
            i++;
        }
    }
    swap(a, i, hi);
    return i;
}

void quick_lomuto(int a[], int lo, int hi) {
    if (lo >= hi) return;
    int p = partition_lomuto(a, lo, hi);
    quick_lomuto(a, lo, p - 1);
    quick_lomuto(a, p + 1, hi);
}

int partition_hoare(int a[], int lo, int hi) {
    int pivot = a[lo + (hi - lo) / 2];
    int i = lo - 1, j = hi + 1;
    for (;;) {
        do i++; while (a[i] < pivot);
        do j--; while (a[j] > pivot);
        if (i >= j) return j;
        swap(a, i, j);
    }
}

void quick_hoare(int a[], int lo, int hi) {
    while (lo < hi) {
        int p = partition_hoare(a, lo, hi);
        /* recurse on the smaller half, loop on the larger */
        if (p - lo < hi - p) {
            quick_hoare(a, lo, p);
            lo = p + 1;
        } else {
            quick_hoare(a, p + 1, hi);
            hi = p;
        }
    }
}

void insertion(int a[], int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

int a[600], b[600], c[600];

int main(void) {
    for (int round = 0; round < 4; round++) {
        int n = 150 + round * 150;
        for (int i = 0; i < n; i++) {
            int v = (int)next_rand() - 16384;
            if (round == 3) v = v % 10; /* many duplicates */
            a[i] = v;
            b[i] = v;
            c[i] = v;
        }
        quick_lomuto(a, 0, n - 1);
        quick_hoare(b, 0, n - 1);
        insertion(c, n);
        int same = 1;
        long check = 0;
        for (int i = 0; i < n; i++) {
            if (a[i] != c[i] || b[i] != c[i]) same = 0;
            check = check * 7 + a[i];
        }
        printf("round %d n=%d same=%d check=%ld min=%d max=%d median=%d\n", round, n, same, check, a[0],
               a[n - 1], a[n / 2]);
        for (int i = 0; i < n; i += n / 10) printf("%d ", a[i]);
        printf("\n");
    }
    return 0;
}
