/* Heapsort with sift-down on unsigned keys, a binary min-heap priority
   queue, and selecting the 100 smallest keys. */
#include <stdio.h>

unsigned rng = 2463534242u;

unsigned rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

void sift_down(unsigned a[], int start, int end) {
    int root = start;
    while (2 * root + 1 <= end) {
        int child = 2 * root + 1;
        int sw = root;
        if (a[sw] < a[child]) sw = child;
        if (child + 1 <= end && a[sw] < a[child + 1]) sw = child + 1;
        if (sw == root) return;
        unsigned t = a[root];
        a[root] = a[sw];
        a[sw] = t;
        root = sw;
    }
}

void heapsort(unsigned a[], int n) {
    for (int start = (n - 2) / 2; start >= 0; start--) sift_down(a, start, n - 1);
    for (int end = n - 1; end > 0; end--) {
        unsigned t = a[end];
        a[end] = a[0];
        a[0] = t;
        sift_down(a, 0, end - 1);
    }
}

int heap[256];
int heap_size = 0;

void push(int v) {
    int i = heap_size++;
    heap[i] = v;
    while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
        int p = (i - 1) / 2;
        int t = heap[p];
        heap[p] = heap[i];
        heap[i] = t;
        i = p;
    }
}

int pop(void) {
    int top = heap[0];
    heap[0] = heap[--heap_size];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_size && heap[l] < heap[m]) m = l;
        if (r < heap_size && heap[r] < heap[m]) m = r;
        if (m == i) break;
        int t = heap[m];
        heap[m] = heap[i];
        heap[i] = t;
        i = m;
    }
    return top;
}

int main(void) {
    unsigned a[700];
    for (int i = 0; i < 700; i++) a[i] = rnd();
    heapsort(a, 700);
    int sorted = 1;
    for (int i = 1; i < 700; i++) if (a[i - 1] > a[i]) sorted = 0;
    printf("sorted=%d\n", sorted);
    for (int i = 0; i < 700; i += 70) printf("%u %x\n", a[i], a[i]);
    printf("max=%u\n", a[699]);

    for (int i = 0; i < 200; i++) push((int)(rnd() % 1000) - 500);
    int prev = -1000, ok = 1;
    for (int i = 0; i < 100; i++) {
        int v = pop();
        if (v < prev) ok = 0;
        prev = v;
        if (i % 10 == 0) printf("pop %d: %d\n", i, v);
    }
    for (int i = 0; i < 50; i++) push(i * 37 % 101);
    while (heap_size > 0) {
        int v = pop();
        if (v < prev) prev = v;
    }
    printf("heap ok=%d prev=%d\n", ok, prev);
    return 0;
}
