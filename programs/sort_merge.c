/* Top-down and bottom-up merge sort on long and double arrays with a
   temporary buffer, plus a stability check on keyed records. */
#include <stdio.h>

unsigned long state = 88172645463325252ul;

unsigned long xorshift(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

long tmp[512];

void merge(long a[], int lo, int mid, int hi) {
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    for (k = lo; k < hi; k++) a[k] = tmp[k];
}

void sort_td(long a[], int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = lo + (hi - lo) / 2;
    sort_td(a, lo, mid);
    sort_td(a, mid, hi);
    merge(a, lo, mid, hi);
}

void sort_bu(long a[], int n) {
    for (int width = 1; width < n; width *= 2)
        for (int lo = 0; lo < n - width; lo += 2 * width) {
            int hi = lo + 2 * width;
            if (hi > n) hi = n;
            merge(a, lo, lo + width, hi);
        }
}

double dtmp[300];

void dsort(double a[], int lo, int hi) {
    if (hi - lo < 2) return;
    int mid = (lo + hi) / 2;
    dsort(a, lo, mid);
    dsort(a, mid, hi);
    int i = lo, j = mid, k = 0;
    while (i < mid || j < hi) {
        if (j >= hi || (i < mid && a[i] <= a[j])) dtmp[k++] = a[i++];
        else dtmp[k++] = a[j++];
    }
    for (k = 0; k < hi - lo; k++) a[lo + k] = dtmp[k];
}

/* records: key[i], id[i]; stable merge sort by key */
int key[200], id[200], tkey[200], tid[200];

void stable_sort(int n) {
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n;
            int hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (key[j] < key[i]) { tkey[k] = key[j]; tid[k++] = id[j++]; }
                else { tkey[k] = key[i]; tid[k++] = id[i++]; }
            }
            while (i < mid) { tkey[k] = key[i]; tid[k++] = id[i++]; }
            while (j < hi) { tkey[k] = key[j]; tid[k++] = id[j++]; }
        }
        for (int k = 0; k < n; k++) { key[k] = tkey[k]; id[k] = tid[k]; }
    }
}

int main(void) {
    long a[500], b[500];
    int n = 500;
    for (int i = 0; i < n; i++) {
        a[i] = (long)(xorshift() >> 20) - 4000000000000L;
        b[i] = a[i];
    }
    sort_td(a, 0, n);
    sort_bu(b, n);
    int ok = 1;
    for (int i = 0; i < n; i++) {
        if (a[i] != b[i]) ok = 0;
        if (i > 0 && a[i - 1] > a[i]) ok = 0;
    }
    printf("long sort ok=%d first=%ld last=%ld\n", ok, a[0], a[n - 1]);
    for (int i = 0; i < n; i += 50) printf("%ld\n", a[i]);

    double d[300];
    for (int i = 0; i < 300; i++) d[i] = (double)(xorshift() % 100000) / 997.0 - 50.0;
    dsort(d, 0, 300);
    ok = 1;
    for (int i = 1; i < 300; i++) if (d[i - 1] > d[i]) ok = 0;
    printf("double sort ok=%d\n", ok);
    for (int i = 0; i < 300; i += 30) printf("%.6f ", d[i]);
    printf("\n");

    for (int i = 0; i < 200; i++) {
        key[i] = (int)(xorshift() % 8);
        id[i] = i;
    }
    stable_sort(200);
    int stable = 1;
    for (int i = 1; i < 200; i++)
        if (key[i - 1] > key[i] || (key[i - 1] == key[i] && id[i - 1] > id[i])) stable = 0;
    printf("stable=%d\n", stable);
    for (int i = 0; i < 200; i += 9) printf("%d:%d ", key[i], id[i]);
    printf("\n");
    return 0;
}
