/* Benchmark-style hot loops with branches for the profilers: nested
   counting loops, a data-dependent branchy loop, and a loop with early
   exits. Output is small; the work dominates. */
#include <stdio.h>

int data[1000];

int main(void) {
    unsigned x = 1;
    for (int i = 0; i < 1000; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (int)((x >> 16) % 1000);
    }
    long sum = 0;
    int evens = 0, odds = 0, big = 0;
    for (int rep = 0; rep < 40; rep++) {
        for (int i = 0; i < 1000; i++) {
            int v = data[i];
            if (v % 2 == 0) {
                evens++;
                sum += v;
            } else {
                odds++;
                sum -= v / 3;
            }
            if (v > 900) big++;
        }
    }
    printf("sum=%ld evens=%d odds=%d big=%d\n", sum, evens, odds, big);
    long tri = 0;
    for (int i = 0; i < 300; i++)
        for (int j = 0; j < i; j++) {
            if ((i ^ j) & 1) tri += i;
            else tri -= j;
        }
    printf("tri=%ld\n", tri);
    int found = 0;
    for (int i = 0; i < 1000 && found < 5; i++) {
        for (int j = i + 1; j < 1000; j++) {
            if (data[i] + data[j] == 1000) {
                found++;
                break;
            }
            if (data[j] == data[i]) continue;
        }
    }
    printf("found=%d\n", found);
    return 0;
}
